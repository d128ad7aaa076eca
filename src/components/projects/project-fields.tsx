import { FormField, inputClasses } from "@/components/ui/form-field";
import type { Project } from "@/lib/trpc-types";
import { APP_NAME_MAX_LENGTH, PROJECT_DESCRIPTION_MAX_LENGTH, PROJECT_NAME_MAX_LENGTH } from "@/lib/schemas/projects";

type Errors = Record<string, string | undefined>;

export const REDIRECT_LINK_HINT =
  "Where a referral link lands, e.g. https://example.com/join. No query string or #fragment: the service appends ?referralCode=… itself.";

/** Name, description and referral redirect link: the fields every project has. */
export function ProjectBasicsFields({ project, errors }: { project?: Project; errors: Errors }) {
  return (
    <>
      <FormField label="Name" error={errors.name}>
        {(p) => <input {...p} name="name" required maxLength={PROJECT_NAME_MAX_LENGTH} defaultValue={project?.name} className={inputClasses} />}
      </FormField>
      <FormField label="Description" optional error={errors.description}>
        {(p) => <textarea {...p} name="description" rows={2} maxLength={PROJECT_DESCRIPTION_MAX_LENGTH} defaultValue={project?.description ?? ""} className={inputClasses} />}
      </FormField>
      <FormField label="Referral redirect link" optional error={errors.referralRedirectLink} hint={REDIRECT_LINK_HINT}>
        {(p) => (
          <input
            {...p}
            name="referralRedirectLink"
            type="url"
            inputMode="url"
            placeholder="https://example.com/join"
            defaultValue={project?.referralRedirectLink ?? ""}
            className={inputClasses}
          />
        )}
      </FormField>
    </>
  );
}

/**
 * The app-store details of a Mobile project (App Store and Google Play links only). The icon is not a
 * URL field: once the project exists, the icon card uploads or removes it.
 */
export function AppDetailsFields({ app, errors }: { app?: Project["app"]; errors: Errors }) {
  const url = (name: "appStoreUrl" | "playStoreUrl", label: string, placeholder: string) => (
    <FormField label={label} optional error={errors[`app.${name}`]}>
      {(p) => (
        <input {...p} name={`app.${name}`} type="url" inputMode="url" placeholder={placeholder} defaultValue={app?.[name] ?? ""} className={inputClasses} />
      )}
    </FormField>
  );
  return (
    <fieldset className="space-y-4 rounded-md border border-zinc-200 p-4">
      <legend className="px-1 text-sm font-medium text-zinc-800">App details</legend>
      {errors.app && <p className="text-sm text-red-700">{errors.app}</p>}
      <FormField label="App name" optional error={errors["app.name"]}>
        {(p) => <input {...p} name="app.name" maxLength={APP_NAME_MAX_LENGTH} defaultValue={app?.name ?? ""} className={inputClasses} />}
      </FormField>
      {url("appStoreUrl", "App Store URL", "https://apps.apple.com/app/…")}
      {url("playStoreUrl", "Play Store URL", "https://play.google.com/store/apps/details?id=…")}
    </fieldset>
  );
}
