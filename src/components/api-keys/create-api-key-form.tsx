"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRef, useState, type FormEvent } from "react";
import { ErrorMessage } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { FormField, inputClasses } from "@/components/ui/form-field";
import { noErrors, toFormErrors, type FormErrors } from "@/lib/errors";
import { useTRPC } from "@/lib/trpc";
import type { RouterOutputs } from "@/lib/trpc-types";
import { API_KEY_NAME_MAX_LENGTH } from "@/lib/schemas/accounts";

export type CreatedApiKey = RouterOutputs["apiKeys"]["create"];

/** A date input means "until the end of that day", in the user's time zone. */
function endOfDay(date: string): string | null {
  if (!date) return null;
  const end = new Date(`${date}T23:59:59.999`);
  return Number.isNaN(end.getTime()) ? null : end.toISOString();
}

export function CreateApiKeyForm({ onCreated }: { onCreated: (key: CreatedApiKey) => void }) {
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
      onError: (error) => setErrors(toFormErrors(error, ["name", "expiresAt"])),
    }),
  );

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    create.mutate({ name: String(form.get("name") ?? ""), expiresAt: endOfDay(String(form.get("expiresAt") ?? "")) });
  }

  return (
    <form ref={formRef} onSubmit={onSubmit} className="space-y-4" noValidate aria-label="Create an API key">
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Key name" error={errors.fields.name} hint="What uses it, e.g. “Billing backend”.">
          {(p) => <input {...p} name="name" required maxLength={API_KEY_NAME_MAX_LENGTH} className={inputClasses} />}
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
