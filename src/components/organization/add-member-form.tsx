"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRef, useState, type FormEvent } from "react";
import { ErrorMessage, StatusMessage } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { FormField, inputClasses } from "@/components/ui/form-field";
import { noErrors, toFormErrors, type FormErrors } from "@/lib/errors";
import { useTRPC } from "@/lib/trpc";

export function AddMemberForm() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const formRef = useRef<HTMLFormElement>(null);
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const [added, setAdded] = useState<string | null>(null);
  const add = useMutation(
    trpc.organizations.addMember.mutationOptions({
      onSuccess: async (_result, input) => {
        setErrors(noErrors);
        setAdded(input.email);
        formRef.current?.reset();
        await queryClient.invalidateQueries({ queryKey: trpc.organizations.members.queryKey() });
      },
      onError: (error) => {
        setAdded(null);
        setErrors(toFormErrors(error, ["email", "role"]));
      },
    }),
  );

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    add.mutate({ email: String(form.get("email") ?? ""), role: form.get("role") === "owner" ? "owner" : "member" });
  }

  return (
    <form ref={formRef} onSubmit={onSubmit} className="space-y-4" noValidate aria-label="Add a member">
      <div className="grid gap-4 sm:grid-cols-[1fr_12rem]">
        <FormField label="Member e-mail" error={errors.fields.email} hint="The person must already have an account.">
          {(p) => <input {...p} name="email" type="email" autoComplete="off" required className={inputClasses} />}
        </FormField>
        <FormField label="Role" error={errors.fields.role}>
          {(p) => (
            <select {...p} name="role" defaultValue="member" className={inputClasses}>
              <option value="member">Member</option>
              <option value="owner">Owner</option>
            </select>
          )}
        </FormField>
      </div>
      <ErrorMessage>{errors.message}</ErrorMessage>
      <div className="flex items-center gap-3">
        <Button type="submit" pending={add.isPending}>
          Add member
        </Button>
        {added && <StatusMessage>Added {added}.</StatusMessage>}
      </div>
    </form>
  );
}
