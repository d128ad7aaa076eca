import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { FormField } from "./form-field";

const render = (props: { error?: string; hint?: string }) =>
  renderToStaticMarkup(<FormField label="Name" {...props}>{(control) => <input {...control} />}</FormField>);

/** The attributes of the first element with this tag. */
const attributesOf = (html: string, tag: string) => {
  const element = new RegExp(`<${tag}\\b([^>]*)>`).exec(html)?.[1] ?? "";
  return Object.fromEntries([...element.matchAll(/([\w-]+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
};

describe("FormField", () => {
  it("labels the control and, with an error, marks it invalid and describes it by the hint and the error", () => {
    const html = render({ hint: "Shown to your users.", error: "is required" });
    const input = attributesOf(html, "input");
    expect(attributesOf(html, "label").for).toBe(input.id);
    expect(input["aria-invalid"]).toBe("true");
    const described = input["aria-describedby"]!.split(" ");
    expect(described).toHaveLength(2);
    for (const id of described) expect(html).toContain(`id="${id}"`);
    expect(html).toContain("Name is required.");
  });

  it("leaves a valid control unmarked, described by its hint only", () => {
    const input = attributesOf(render({ hint: "Shown to your users." }), "input");
    expect(input["aria-invalid"]).toBeUndefined();
    expect(input["aria-describedby"]).toMatch(/-hint$/);
    expect(attributesOf(render({}), "input")["aria-describedby"]).toBeUndefined();
  });
});
