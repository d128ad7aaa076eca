"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ErrorMessage } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { FormField, inputClasses } from "@/components/ui/form-field";
import { toFormErrors } from "@/lib/errors";
import { useTRPCClient } from "@/lib/trpc";
import type { AppUser } from "./app-users-table";
import { EVENT_NAME_MAX_LENGTH } from "@/lib/schemas/referrals";

/**
 * The referral code and the shareable link. The link comes from `referrals.createLink` (a POST for REST
 * clients, but without side effects), so it is read like a query and cached per event name.
 */
export function ReferralLinkCard({ projectId, user }: { projectId: string; user: AppUser }) {
  const client = useTRPCClient();
  const [eventName, setEventName] = useState("");
  const [applied, setApplied] = useState("");
  const link = useQuery({
    queryKey: ["referral-link", projectId, user.clientProvidedId, applied],
    queryFn: () =>
      client.referrals.createLink.mutate({ projectId, referrerId: user.clientProvidedId, ...(applied ? { rewardEventName: applied } : {}) }),
    retry: false,
    staleTime: Infinity,
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setApplied(eventName.trim());
  }

  const errors = link.isError ? toFormErrors(link.error, ["referralRedirectLink", "rewardEventName"]) : null;
  return (
    <Card title="Referral link" description="What this user shares. Arrivals through it are tracked as their referrals.">
      <div className="space-y-4">
        <div className="flex items-center gap-2 text-sm">
          <span className="w-28 shrink-0 text-zinc-500">Referral code</span>
          <code className="rounded bg-zinc-100 px-1.5 py-0.5 font-mono">{user.referralCode}</code>
          <CopyButton value={user.referralCode} label="referral code" />
        </div>
        <div className="flex items-center gap-2 text-sm">
          <label htmlFor="referral-link" className="w-28 shrink-0 text-zinc-500">
            Referral link
          </label>
          <input
            id="referral-link"
            readOnly
            value={link.data?.referralLink ?? (link.isPending ? "Loading…" : "")}
            onFocus={(e) => e.currentTarget.select()}
            className={`${inputClasses} font-mono`}
          />
          {link.data && <CopyButton value={link.data.referralLink} label="referral link" size="md" />}
        </div>
        {errors?.fields.referralRedirectLink && (
          <ErrorMessage>
            {errors.fields.referralRedirectLink}{" "}
            <Link href={`/dashboard/projects/${projectId}/settings`} className="font-medium underline">
              Open the project settings
            </Link>
          </ErrorMessage>
        )}
        {errors && !errors.fields.referralRedirectLink && !errors.fields.rewardEventName && <ErrorMessage>{errors.message}</ErrorMessage>}
        <form onSubmit={onSubmit} aria-label="Reward event for the link" className="flex flex-wrap items-end gap-3">
          <FormField
            label="Reward event name"
            optional
            error={errors?.fields.rewardEventName}
            hint="Only this exact event (case-sensitive) can claim the reward. Empty: any event."
            className="min-w-64 flex-1"
          >
            {(p) => (
              <input {...p} value={eventName} onChange={(e) => setEventName(e.target.value)} maxLength={EVENT_NAME_MAX_LENGTH} placeholder="e.g. first_purchase" className={inputClasses} />
            )}
          </FormField>
          <Button type="submit" variant="secondary" className="mb-5" pending={link.isFetching}>
            Update link
          </Button>
        </form>
      </div>
    </Card>
  );
}
