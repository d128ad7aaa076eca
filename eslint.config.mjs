import tseslint from "typescript-eslint";

/** Imports a layer may not make: data flows route -> procedure -> domain -> db, never back. */
const forbid = (files, groups) => ({
  files,
  rules: {
    "no-restricted-imports": ["error", { patterns: groups.map(({ group, message }) => ({ group, message })) }],
  },
});

export default tseslint.config(
  { ignores: ["node_modules/", ".next/", "dist/", ".data/", "src/generated/", "test-results/", "playwright-report/", "next-env.d.ts", ".tmp-*/", "packages/*/dist/"] },
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  forbid(
    ["src/server/domain/**"],
    [
      { group: ["@/server/api", "@/server/api/*", "@/server/api/**", "../../api/**", "../api/**"], message: "The domain is free of the API layer: take typed input, return typed results." },
      { group: ["@/server/jobs", "@/server/jobs/*", "@/server/jobs/**", "../../jobs/**", "../jobs/**"], message: "The domain returns delivery ids; the caller hands them to the scheduler." },
      { group: ["@/app", "@/app/*", "@/app/**", "@/components", "@/components/*", "@/components/**"], message: "The domain knows nothing of routes or React." },
    ],
  ),
  forbid(
    ["src/components/**"],
    [{ group: ["@/app", "@/app/*", "@/app/**"], message: "Components do not import routes; routes compose components." }],
  ),
  forbid(
    ["src/lib/schemas/**"],
    [{ group: ["@/server", "@/server/*", "@/server/**"], message: "The shared schemas are bundled into the dashboard: no server code." }],
  ),
  {
    // Shared code is imported by the dashboard's client bundle too: server types only, never server code.
    files: ["src/lib/**"],
    ignores: ["src/lib/**/*.test.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        { patterns: [{ group: ["@/server", "@/server/*", "@/server/**"], allowTypeImports: true, message: "src/lib is shared with the browser: import only types from src/server." }] },
      ],
    },
  },
  forbid(
    ["packages/*/src/**"],
    [
      {
        group: ["@/*", "@/**", "../../src/**", "../../../src/**"],
        message: "The client packages are installed on their own: nothing from the app (wire types come from scripts/sdk-types.ts).",
      },
    ],
  ),
  {
    // Their tests may use the app's test helpers.
    files: ["packages/*/src/**/*.test.ts"],
    rules: { "no-restricted-imports": "off" },
  },
);
