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
import { PROJECT_FIELDS, readOrigins, readProjectForm } from "./project-form-data";

export function EditProjectForm({ project }: { project: Project }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const [saved, setSaved] = useState(false);
  const permission = usePermission("projects.update");
  const update = useMutation(
    trpc.projects.update.mutationOptions({
      onSuccess: async (updated) => {
        setErrors(noErrors);
        setSaved(true);
        queryClient.setQueryData(trpc.projects.get.queryKey({ projectId: updated.uniqueId }), updated);
        await queryClient.invalidateQueries({ queryKey: trpc.projects.list.queryKey() });
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
          hint="One origin per line (scheme, host and optional port), e.g. https://shop.example.com. Browsers on other origins cannot call the client-library endpoints; leave empty to allow any."
        >
          {(p) => (
            <textarea
              {...p}
              name="allowedOrigins"
              rows={3}
              defaultValue={project.allowedOrigins.join("\n")}
              placeholder="https://shop.example.com"
              className={`${inputClasses} font-mono`}
            />
          )}
        </FormField>
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
