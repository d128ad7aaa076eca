"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRef, useState, type FormEvent } from "react";
import type { MemberRole } from "@/generated/prisma/enums";
import { ErrorMessage, StatusMessage } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { FormField, inputClasses } from "@/components/ui/form-field";
import { noErrors, toFormErrors, type FormErrors } from "@/lib/errors";
import { ROLE_LABELS } from "@/lib/permissions";
import { MEMBER_ROLES } from "@/lib/schemas/accounts";
import { useTRPC } from "@/lib/trpc";

/** Owners invite an address with a role; the person accepts from the e-mailed link. */
export function InviteMemberForm() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const formRef = useRef<HTMLFormElement>(null);
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const [invited, setInvited] = useState<string | null>(null);
  const invite = useMutation(
    trpc.invitations.create.mutationOptions({
      onSuccess: async (invitation) => {
        setErrors(noErrors);
        setInvited(invitation.email);
        formRef.current?.reset();
        await queryClient.invalidateQueries({ queryKey: trpc.invitations.list.queryKey() });
      },
      onError: async (error) => {
        setInvited(null);
        setErrors(toFormErrors(error, ["email", "role"]));
        // A failed e-mail still saved the invitation.
        await queryClient.invalidateQueries({ queryKey: trpc.invitations.list.queryKey() });
      },
    }),
  );

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    invite.mutate({ email: String(form.get("email") ?? ""), role: String(form.get("role") ?? "member") as MemberRole });
  }

  return (
    <form ref={formRef} onSubmit={onSubmit} className="space-y-4" noValidate aria-label="Invite a member">
      <div className="grid gap-4 sm:grid-cols-[1fr_12rem]">
        <FormField label="E-mail address" error={errors.fields.email} hint="They get a link that works once, for 7 days, for an account with this verified address.">
          {(p) => <input {...p} name="email" type="email" autoComplete="off" required className={inputClasses} />}
        </FormField>
        <FormField label="Role" error={errors.fields.role}>
          {(p) => (
            <select {...p} name="role" defaultValue="member" className={inputClasses}>
              {MEMBER_ROLES.map((role) => (
                <option key={role} value={role}>
                  {ROLE_LABELS[role]}
                </option>
              ))}
            </select>
          )}
        </FormField>
      </div>
      <ErrorMessage>{errors.message}</ErrorMessage>
      <div className="flex items-center gap-3">
        <Button type="submit" pending={invite.isPending}>
          Send invitation
        </Button>
        {invited && <StatusMessage>Invitation sent to {invited}.</StatusMessage>}
      </div>
    </form>
  );
}
