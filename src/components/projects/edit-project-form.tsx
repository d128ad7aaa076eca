"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { PermissionNote, usePermission } from "@/components/dashboard/permissions";
import { useState, type FormEvent } from "react";
import { ErrorMessage, StatusMessage } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { FormField, inputClasses } from "@/components/ui/form-field";
import { noErrors, toFormErrors, type FormErrors } from "@/lib/errors";
import { useTRPC } from "@/lib/trpc";
import type { Project } from "@/lib/trpc-types";
import { AppDetailsFields, ProjectBasicsFields } from "./project-fields";
import { PROJECT_FIELDS, readOrigins, readProjectForm, suggestedOrigin } from "./project-form-data";

export function EditProjectForm({ project }: { project: Project }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const [saved, setSaved] = useState(false);
  const permission = usePermission("projects.update");
  const [origins, setOrigins] = useState(project.allowedOrigins.join("\n"));
  // Mobile apps send no Origin: the web widget's warning does not apply to them.
  const mobile = project.appType === "Mobile";
  const listed = origins.split(/\r?\n/).map((line) => line.trim()).filter(Boolean);
  const suggestion = suggestedOrigin(project.referralRedirectLink, listed);
  const update = useMutation(
    trpc.projects.update.mutationOptions({
      onSuccess: async (updated) => {
        setErrors(noErrors);
        setSaved(true);
        queryClient.setQueryData(trpc.projects.get.queryKey({ projectId: updated.uniqueId }), updated);
        await queryClient.invalidateQueries({ queryKey: trpc.projects.list.queryKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.onboarding.get.queryKey() });
      },
      onError: (error) => {
        setSaved(false);
        setErrors(toFormErrors(error, PROJECT_FIELDS));
      },
    }),
  );

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setSaved(false);
    update.mutate({
      projectId: project.uniqueId,
      ...readProjectForm(form, project.appType),
      allowedOrigins: readOrigins(form),
      identityVerification: form.get("identityVerification") === "on",
    });
  }

  return (
    <Card title="Settings" description="Changes apply immediately to new referral links and client-library calls.">
      <form onSubmit={onSubmit} onChange={() => setSaved(false)} className="max-w-xl space-y-4" noValidate aria-label="Project settings">
        <fieldset disabled={!permission.allowed} className="space-y-4">
        <ProjectBasicsFields project={project} errors={errors.fields} />
        <FormField
          label="Allowed origins"
          optional
          error={errors.fields.allowedOrigins}
          hint="One origin per line (scheme, host and optional port), e.g. https://shop.example.com. Only pages on these origins can call the client-library endpoints; servers and mobile apps (which send no Origin) are not affected."
        >
          {(p) => (
            <textarea
              {...p}
              name="allowedOrigins"
              rows={3}
              value={origins}
              onChange={(event) => setOrigins(event.target.value)}
              placeholder="https://shop.example.com"
              className={`${inputClasses} font-mono`}
            />
          )}
        </FormField>
        {((listed.length === 0 && !mobile) || suggestion) && (
          <div role="note" className="space-y-2 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
            {listed.length === 0 && !mobile && <p>No browser origin is allowed: the web widget cannot work on any site until you add your site&apos;s origin.</p>}
            {suggestion && (
              <div className="flex flex-wrap items-center gap-2">
                <span>
                  Your referral links land on <code className="font-mono">{suggestion}</code>.
                </span>
                <Button
                  variant="secondary"
                  size="sm"
                  onClick={() => {
                    setOrigins([...listed, suggestion].join("\n"));
                    setSaved(false);
                  }}
                >
                  Add {suggestion}
                </Button>
              </div>
            )}
          </div>
        )}
        <div className="space-y-1">
          <label className="flex items-center gap-2 text-sm font-medium text-zinc-800">
            <input type="checkbox" name="identityVerification" defaultChecked={project.identityVerification} className="size-4 accent-brand-600" />
            Identity verification
          </label>
          <p className="text-xs text-zinc-500">
            The widget&apos;s identify (init-app-user with the publishable key) must then carry userHash, the hex HMAC-SHA256 of the user id keyed
            with the project secret, computed by your backend: nobody can load another user&apos;s referral link from a browser.
          </p>
          {errors.fields.identityVerification && <p className="text-sm text-red-700">{errors.fields.identityVerification}</p>}
        </div>
        {project.appType === "Mobile" && <AppDetailsFields app={project.app} errors={errors.fields} />}
        </fieldset>
        <ErrorMessage>{errors.message}</ErrorMessage>
        <div className="flex items-center gap-3">
          <Button type="submit" pending={update.isPending} disabled={!permission.allowed}>
            Save changes
          </Button>
          <PermissionNote reason={permission.reason} />
          {saved && <StatusMessage>Saved.</StatusMessage>}
        </div>
      </form>
    </Card>
  );
}
