"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRef, useState, type FormEvent } from "react";
import { ErrorMessage } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { FormField, inputClasses } from "@/components/ui/form-field";
import { noErrors, toFormErrors, type FormErrors } from "@/lib/errors";
import { useTRPC } from "@/lib/trpc";
import type { RouterOutputs } from "@/lib/trpc-types";
import type { ApiKeyRole, MemberRole } from "@/generated/prisma/enums";
import { API_KEY_ROLE_LABELS, grantableKeyRoles } from "@/lib/permissions";
import { API_KEY_NAME_MAX_LENGTH } from "@/lib/schemas/accounts";

export type CreatedApiKey = RouterOutputs["apiKeys"]["create"];

/** A date input means "until the end of that day", in the user's time zone. */
function endOfDay(date: string): string | null {
  if (!date) return null;
  const end = new Date(`${date}T23:59:59.999`);
  return Number.isNaN(end.getTime()) ? null : end.toISOString();
}

export function CreateApiKeyForm({ role, onCreated }: { role: MemberRole | null; onCreated: (key: CreatedApiKey) => void }) {
  const roles = grantableKeyRoles(role);
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const formRef = useRef<HTMLFormElement>(null);
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const create = useMutation(
    trpc.apiKeys.create.mutationOptions({
      onSuccess: async (key) => {
        setErrors(noErrors);
        formRef.current?.reset();
        onCreated(key);
        await queryClient.invalidateQueries({ queryKey: trpc.apiKeys.list.queryKey() });
      },
      onError: (error) => setErrors(toFormErrors(error, ["name", "expiresAt", "role"])),
    }),
  );

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    create.mutate({
      name: String(form.get("name") ?? ""),
      role: String(form.get("role") ?? "member") as ApiKeyRole,
      expiresAt: endOfDay(String(form.get("expiresAt") ?? "")),
    });
  }

  return (
    <form ref={formRef} onSubmit={onSubmit} className="space-y-4" noValidate aria-label="Create an API key">
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Key name" error={errors.fields.name} hint="What uses it, e.g. “Billing backend”.">
          {(p) => <input {...p} name="name" required maxLength={API_KEY_NAME_MAX_LENGTH} className={inputClasses} />}
        </FormField>
        <FormField label="Key role" error={errors.fields.role} className="sm:col-span-2">
          {(p) => (
            // The least powerful key that still writes is the default: most backends need no more.
            <select {...p} name="role" defaultValue={roles.includes("member") ? "member" : roles[0]} className={inputClasses}>
              {roles.map((r) => (
                <option key={r} value={r}>
                  {API_KEY_ROLE_LABELS[r]}
                </option>
              ))}
            </select>
          )}
        </FormField>
        <FormField label="Expires on" optional error={errors.fields.expiresAt} hint="The key stops working after this day. Empty: never.">
          {(p) => <input {...p} name="expiresAt" type="date" className={inputClasses} />}
        </FormField>
      </div>
      <ErrorMessage>{errors.message}</ErrorMessage>
      <Button type="submit" pending={create.isPending}>
        Create API key
      </Button>
    </form>
  );
}
