"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRef, useState, type FormEvent } from "react";
import { ErrorMessage, StatusMessage } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { FormField, inputClasses } from "@/components/ui/form-field";
import { noErrors, toFormErrors, type FormErrors } from "@/lib/errors";
import { MIN_PASSWORD_LENGTH, newPasswordInput } from "@/lib/schemas/password";
import { useTRPC } from "@/lib/trpc";

/** Changes the password with the current one; every other session of the account ends. */
export function ChangePasswordForm({ email }: { email: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const formRef = useRef<HTMLFormElement>(null);
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const change = useMutation(
    trpc.accounts.changePassword.mutationOptions({
      onSuccess: async () => {
        setErrors(noErrors);
        formRef.current?.reset();
        await queryClient.invalidateQueries({ queryKey: trpc.accounts.sessions.queryKey() });
      },
      onError: (error) => setErrors(toFormErrors(error, ["currentPassword", "newPassword"])),
    }),
  );

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const currentPassword = String(form.get("currentPassword") ?? "");
    const newPassword = String(form.get("newPassword") ?? "");
    setErrors(noErrors);
    const weak = (await newPasswordInput.safeParseAsync({ email, password: newPassword })).error?.issues[0];
    if (weak) return setErrors({ message: null, fields: { newPassword: weak.message } });
    change.mutate({ currentPassword, newPassword });
  }

  return (
    <form ref={formRef} onSubmit={onSubmit} className="max-w-md space-y-4" noValidate aria-label="Change password">
      <FormField label="Current password" error={errors.fields.currentPassword}>
        {(p) => <input {...p} name="currentPassword" type="password" autoComplete="current-password" required className={inputClasses} />}
      </FormField>
      <FormField label="New password" error={errors.fields.newPassword} hint={`At least ${MIN_PASSWORD_LENGTH} characters; not a common password or your e-mail address.`}>
        {(p) => <input {...p} name="newPassword" type="password" autoComplete="new-password" required minLength={MIN_PASSWORD_LENGTH} className={inputClasses} />}
      </FormField>
      <ErrorMessage>{errors.message}</ErrorMessage>
      <div className="flex items-center gap-3">
        <Button type="submit" pending={change.isPending}>
          Change password
        </Button>
        {change.isSuccess && (
          <StatusMessage>
            Password changed. {change.data.endedSessions ? `${change.data.endedSessions} other session${change.data.endedSessions === 1 ? " was" : "s were"} signed out.` : ""}
          </StatusMessage>
        )}
      </div>
    </form>
  );
}
