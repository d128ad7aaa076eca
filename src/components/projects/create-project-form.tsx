"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRef, useState, type FormEvent } from "react";
import { ErrorMessage } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { FormField, inputClasses } from "@/components/ui/form-field";
import { noErrors, toFormErrors, type FormErrors } from "@/lib/errors";
import { useTRPC } from "@/lib/trpc";
import type { AppType, RouterOutputs } from "@/lib/trpc-types";
import { AppDetailsFields, ProjectBasicsFields } from "./project-fields";
import { PROJECT_FIELDS, readProjectForm } from "./project-form-data";

export type CreatedProject = RouterOutputs["projects"]["create"];

export function CreateProjectForm({ onCreated }: { onCreated: (project: CreatedProject) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const formRef = useRef<HTMLFormElement>(null);
  const [appType, setAppType] = useState<AppType>("Web");
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const create = useMutation(
    trpc.projects.create.mutationOptions({
      onSuccess: async (project) => {
        setErrors(noErrors);
        formRef.current?.reset();
        setAppType("Web");
        onCreated(project);
        await queryClient.invalidateQueries({ queryKey: trpc.projects.list.queryKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.onboarding.get.queryKey() });
      },
      onError: (error) => setErrors(toFormErrors(error, PROJECT_FIELDS)),
    }),
  );

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    create.mutate({ ...readProjectForm(new FormData(event.currentTarget), appType), appType });
  }

  return (
    <form ref={formRef} onSubmit={onSubmit} className="space-y-4" noValidate aria-label="Create a project">
      <ProjectBasicsFields errors={errors.fields} />
      <FormField label="App type" error={errors.fields.appType} hint="Set once: it cannot change after creation.">
        {(p) => (
          <select {...p} name="appType" value={appType} onChange={(e) => setAppType(e.target.value as AppType)} className={inputClasses}>
            <option value="Web">Web</option>
            <option value="Mobile">Mobile</option>
          </select>
        )}
      </FormField>
      {appType === "Mobile" && <AppDetailsFields errors={errors.fields} />}
      <ErrorMessage>{errors.message}</ErrorMessage>
      <Button type="submit" pending={create.isPending}>
        Create project
      </Button>
    </form>
  );
}
