"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { ErrorMessage, StatusMessage } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { FormField, inputClasses } from "@/components/ui/form-field";
import { noErrors, toFormErrors, type FormErrors } from "@/lib/errors";
import { ORGANIZATION_NAME_MAX_LENGTH } from "@/lib/schemas/accounts";
import { useTRPC } from "@/lib/trpc";

/** For owners: the active organisation's name, as every member sees it (the switcher, invitations). */
export function RenameOrganizationForm({ name }: { name: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const [saved, setSaved] = useState(false);
  const rename = useMutation(
    trpc.organizations.rename.mutationOptions({
      onSuccess: async () => {
        setErrors(noErrors);
        setSaved(true);
        await queryClient.invalidateQueries({ queryKey: trpc.accounts.me.queryKey() });
        // The organisation switcher is rendered by the server.
        router.refresh();
      },
      onError: (error) => setErrors(toFormErrors(error, ["name"])),
    }),
  );

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSaved(false);
    rename.mutate({ name: String(new FormData(event.currentTarget).get("name") ?? "") });
  }

  return (
    <form onSubmit={onSubmit} className="max-w-xl space-y-4" noValidate aria-label="Rename the organisation">
      <FormField label="Organisation name" error={errors.fields.name}>
        {(p) => <input {...p} name="name" required defaultValue={name} maxLength={ORGANIZATION_NAME_MAX_LENGTH} className={inputClasses} />}
      </FormField>
      <ErrorMessage>{errors.message}</ErrorMessage>
      <div className="flex items-center gap-3">
        <Button type="submit" pending={rename.isPending}>
          Rename
        </Button>
        {saved && <StatusMessage>Renamed.</StatusMessage>}
      </div>
    </form>
  );
}
