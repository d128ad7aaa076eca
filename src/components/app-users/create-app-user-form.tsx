"use client";

import Link from "next/link";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ErrorMessage, StatusMessage } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { FormField, inputClasses } from "@/components/ui/form-field";
import { KeyValueEditor, recordFromRows, type KeyValueRow } from "@/components/ui/key-value-editor";
import { noErrors, toFormErrors, type FormErrors } from "@/lib/errors";
import { useTRPC } from "@/lib/trpc";
import { appUserPath } from "./paths";
import { CLIENT_PROVIDED_ID_MAX_LENGTH } from "@/lib/schemas/app-users";

export function CreateAppUserForm({ projectId }: { projectId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [clientId, setClientId] = useState("");
  const [rows, setRows] = useState<KeyValueRow[]>([]);
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const create = useMutation(
    trpc.appUsers.create.mutationOptions({
      onSuccess: async () => {
        setErrors(noErrors);
        setClientId("");
        setRows([]);
        await queryClient.invalidateQueries({ queryKey: trpc.appUsers.list.queryKey() });
      },
      onError: (error) => setErrors(toFormErrors(error, ["clientProvidedId", "attributes"])),
    }),
  );

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const attributes = recordFromRows(rows);
    if ("error" in attributes) {
      setErrors({ message: null, fields: { attributes: attributes.error } });
      return;
    }
    create.mutate({ projectId, clientProvidedId: clientId, attributes: attributes.record });
  }

  return (
    <form onSubmit={onSubmit} className="max-w-2xl space-y-4" noValidate aria-label="New app user">
      <FormField label="Client id" error={errors.fields.clientProvidedId} hint="Your own id for this user, unique in the project.">
        {(p) => (
          <input
            {...p}
            name="clientProvidedId"
            value={clientId}
            onChange={(e) => {
              setClientId(e.target.value);
              create.reset();
            }}
            maxLength={CLIENT_PROVIDED_ID_MAX_LENGTH}
            autoComplete="off"
            className={`${inputClasses} max-w-md`}
          />
        )}
      </FormField>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-zinc-800">
          Attributes <span className="font-normal text-zinc-500">(optional)</span>
        </legend>
        <KeyValueEditor rows={rows} onChange={setRows} />
        {errors.fields.attributes && <p className="text-sm text-red-700">{errors.fields.attributes}</p>}
      </fieldset>
      <ErrorMessage>{errors.message}</ErrorMessage>
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" pending={create.isPending}>
          Create app user
        </Button>
        {create.data && (
          <StatusMessage>
            Created {create.data.clientProvidedId} with referral code {create.data.referralCode}.{" "}
            <Link href={appUserPath(projectId, create.data.uniqueId)} className="font-medium text-brand-700 underline">
              Open {create.data.clientProvidedId}
            </Link>
          </StatusMessage>
        )}
      </div>
    </form>
  );
}
