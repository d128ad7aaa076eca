"use client";

import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ErrorMessage } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { FormField, inputClasses } from "@/components/ui/form-field";
import { useSwitchOrganization } from "@/components/dashboard/use-switch-organization";
import { noErrors, toFormErrors, type FormErrors } from "@/lib/errors";
import { useTRPC } from "@/lib/trpc";
import { ORGANIZATION_NAME_MAX_LENGTH } from "@/lib/schemas/accounts";

export function CreateOrganizationForm() {
  const trpc = useTRPC();
  const { switchTo, pending: switching } = useSwitchOrganization();
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const create = useMutation(
    trpc.organizations.create.mutationOptions({
      onSuccess: (organization) => {
        setErrors(noErrors);
        switchTo(organization.id);
      },
      onError: (error) => setErrors(toFormErrors(error, ["name"])),
    }),
  );

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    create.mutate({ name: String(new FormData(form).get("name") ?? "") }, { onSuccess: () => form.reset() });
  }

  return (
    <form onSubmit={onSubmit} className="max-w-xl space-y-4" noValidate aria-label="Create an organisation">
      <FormField label="Organisation name" error={errors.fields.name}>
        {(p) => <input {...p} name="name" required maxLength={ORGANIZATION_NAME_MAX_LENGTH} className={inputClasses} />}
      </FormField>
      <ErrorMessage>{errors.message}</ErrorMessage>
      <Button type="submit" pending={create.isPending || switching}>
        Create and switch
      </Button>
    </form>
  );
}
