"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import { AppUserLink } from "@/components/app-users/app-user-link";
import { usePermission } from "@/components/dashboard/permissions";
import { referralPath } from "@/components/deliveries/paths";
import { ErrorMessage } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Breakable } from "@/components/ui/breakable";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { DataTable, type Column } from "@/components/ui/data-table";
import { DateTime } from "@/components/ui/date-time";
import { FormField, inputClasses } from "@/components/ui/form-field";
import { Pagination, PAGE_SIZES } from "@/components/ui/pagination";
import { SelectControl } from "@/components/ui/select-control";
import { toFormErrors } from "@/lib/errors";
import { rewardReasonText } from "@/lib/schemas/referrals";
import { REVIEW_NOTE_MAX_LENGTH } from "@/lib/schemas/reviews";
import { REVIEW_REASON_CODES, REVIEW_REASONS, type ReviewReason } from "@/lib/schemas/reward-rules";
import { useTRPC } from "@/lib/trpc";
import type { RouterOutputs } from "@/lib/trpc-types";
import { oneOf, positiveInt, useUrlState } from "@/lib/use-url-state";
import { ReviewDecisions } from "./review-decisions";

type Review = RouterOutputs["reviews"]["list"]["items"][number];
type Decided = RouterOutputs["reviews"]["decide"]["items"][number];
type Decision = "approve" | "deny";
type Asking = { decision: Decision; ids: string[] };

const URL_DEFAULTS = { page: "1", pageSize: "20", reason: "all" } as const;
const REASON_FILTER = [["all", "Every reason"], ...REVIEW_REASON_CODES.map((r) => [r, REVIEW_REASONS[r]] as const)] as const;

/** One item's outcome in words: what the reviewer must know, the failure's reason spelt out. */
export function outcomeText(item: Pick<Decided, "outcome" | "reason">): string {
  switch (item.outcome) {
    case "granted":
      return "Granted: the reward completed and its webhooks are on their way.";
    case "failed":
      return `Failed: ${item.reason ? rewardReasonText(item.reason) : "the reward did not complete"}.`;
    case "not_in_review":
      return "Not decided: it had already left the review queue (decided by someone else, or its hold ended).";
    case "not_found":
      return "Not decided: the referral no longer exists.";
  }
}

function Party({ projectId, clientId, uniqueId }: { projectId: string; clientId: string | null; uniqueId: string | null }) {
  if (clientId === null || uniqueId === null) return <span className="text-zinc-500 italic">erased</span>;
  return <AppUserLink projectId={projectId} clientProvidedId={clientId} uniqueId={uniqueId} />;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Where the referee's client was seen, each place marked when the referrer's was seen there too. */
function Signals({ signals }: { signals: Review["refereeSignals"] }) {
  if (signals.length === 0) return <p className="text-xs text-zinc-500">No address or device recorded.</p>;
  return (
    <ul className="mt-1 space-y-0.5 text-xs text-zinc-600">
      {signals.map((s) => (
        <li key={`${s.kind}:${s.value}`} className="flex flex-wrap items-center gap-1">
          <span>{s.kind === "ip" ? "Address" : "Device"}</span>
          <Breakable text={s.value} className="font-mono" />
          {s.sharedWithReferrer && <Badge tone="red">also the referrer&apos;s</Badge>}
        </li>
      ))}
    </ul>
  );
}

/** The confirmation every decision goes through but a single approval: what will happen, and the reason in words. */
function ConfirmDecision({ asking, pending, onConfirm, onCancel }: { asking: Asking; pending: boolean; onConfirm: (note: string) => void; onCancel: () => void }) {
  const [note, setNote] = useState("");
  const field = useRef<HTMLTextAreaElement>(null);
  useEffect(() => field.current?.focus(), []);
  const what = plural(asking.ids.length, "held reward");
  const deny = asking.decision === "deny";
  return (
    <section aria-label="Confirm the decision" className="mb-4 space-y-3 rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900">
      <p className="font-medium">
        {deny
          ? `Deny ${what}? Each fails with denied_in_review and nothing is delivered.`
          : `Approve ${what}? Each is checked again (caps included) and granted or failed; you will see which.`}
      </p>
      <FormField label={deny ? "Reason for the denial" : "Note"} optional hint={`Kept with the decision: shown in the history, exported and in the audit log (at most ${REVIEW_NOTE_MAX_LENGTH} characters).`}>
        {(p) => <textarea {...p} ref={field} rows={2} maxLength={REVIEW_NOTE_MAX_LENGTH} value={note} onChange={(e) => setNote(e.target.value)} className={inputClasses} />}
      </FormField>
      <div className="flex flex-wrap gap-2">
        <Button variant={deny ? "danger" : "primary"} pending={pending} onClick={() => onConfirm(note)}>
          {deny ? `Deny ${what}` : `Approve ${what}`}
        </Button>
        <Button variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </section>
  );
}

/** Each item's real outcome after a decision, failures first in words; never a blanket "approved". */
function Outcomes({ decision, items, names }: { decision: Decision; items: Decided[]; names: ReadonlyMap<string, string> }) {
  const failed = items.filter((i) => i.outcome !== "granted" && !(decision === "deny" && i.reason === "denied_in_review"));
  const verb = decision === "approve" ? "Approved" : "Denied";
  const summary =
    decision === "approve"
      ? `${verb} ${plural(items.length, "held reward")}: ${items.filter((i) => i.outcome === "granted").length} granted, ${failed.length} not granted.`
      : `${verb} ${plural(items.length, "held reward")}: ${items.length - failed.length} denied${failed.length ? `, ${failed.length} not decided` : ""}.`;
  return (
    <section
      role="status"
      aria-label="Outcome of the decision"
      className={`mb-4 rounded-md border px-3 py-2 text-sm ${failed.length ? "border-amber-300 bg-amber-50 text-amber-900" : "border-emerald-200 bg-emerald-50 text-emerald-800"}`}
    >
      <p className="font-medium">{summary}</p>
      <ul className="mt-1 space-y-0.5">
        {items.map((item) => (
          <li key={item.trackingId} data-outcome={item.outcome}>
            <span className="font-medium">{names.get(item.trackingId) ?? item.trackingId.slice(0, 8)}</span>:{" "}
            {decision === "deny" && item.reason === "denied_in_review" ? "Denied." : outcomeText(item)}
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * The review queue: rewards a campaign rule holds back, oldest first, each with what a reviewer
 * decides on (the referee's e-mail and where they were seen, the referrer's record). Everyone can read
 * it; owners and members decide, one at a time or the rows they select. Every decision but a single
 * approval is confirmed first (with the reason in words), and its answer is each item's real outcome.
 */
export function ReviewQueue({ projectId }: { projectId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const deciding = usePermission("reviews.decide");
  const [url, setUrl] = useUrlState(URL_DEFAULTS);
  const page = positiveInt(url.page, 1);
  const pageSize = Number(oneOf(url.pageSize, PAGE_SIZES.map(String), "20"));
  const reason = oneOf(url.reason, REASON_FILTER.map(([v]) => v), "all");
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [asking, setAsking] = useState<Asking | null>(null);
  const [outcome, setOutcome] = useState<{ decision: Decision; items: Decided[]; names: Map<string, string> } | null>(null);
  const reviews = useQuery({
    ...trpc.reviews.list.queryOptions({ projectId, page, pageSize, ...(reason === "all" ? {} : { reason: reason as ReviewReason }) }),
    placeholderData: keepPreviousData,
  });
  const items = reviews.data?.items ?? [];

  const decide = useMutation(
    trpc.reviews.decide.mutationOptions({
      onSuccess: async (answer, input) => {
        const names = new Map(items.map((r) => [r.trackingId, `${r.referrerId ?? "erased"} → ${r.refereeId ?? "erased"}`]));
        setOutcome({ decision: input.decision as Decision, items: answer.items, names });
        setSelected(new Set());
        setAsking(null);
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: trpc.reviews.list.queryKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.reviews.decisions.queryKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.referrals.list.queryKey() }),
        ]);
      },
    }),
  );
  const run = (decision: Decision, ids: string[], note = "") => {
    setOutcome(null);
    decide.mutate({ projectId, decision, trackingIds: ids, ...(note.trim() ? { note } : {}) });
  };

  const allSelected = items.length > 0 && items.every((r) => selected.has(r.trackingId));
  const toggle = (id: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const who = (r: Review) => r.refereeId ?? "an erased referee";

  const columns: Column<Review>[] = [
    ...(deciding.allowed
      ? [
          {
            id: "select",
            header: "Select",
            cell: (r: Review) => <input type="checkbox" aria-label={`Select the reward for ${who(r)}`} checked={selected.has(r.trackingId)} onChange={() => toggle(r.trackingId)} />,
          },
        ]
      : []),
    {
      id: "referee",
      header: "Referee",
      cell: (r) => (
        <div className="min-w-44">
          <Party projectId={projectId} clientId={r.refereeId} uniqueId={r.refereeUniqueId} />
          {r.refereeEmail && <Breakable text={r.refereeEmail} className="block text-xs text-zinc-600" />}
          <Signals signals={r.refereeSignals} />
        </div>
      ),
    },
    {
      id: "referrer",
      header: "Referrer",
      cell: (r) => (
        <div className="min-w-36">
          <Party projectId={projectId} clientId={r.referrerId} uniqueId={r.referrerUniqueId} />
          {r.referrerHistory && (
            <p className="text-xs text-zinc-600">
              {plural(r.referrerHistory.referrals, "referral")}, {plural(r.referrerHistory.rewards, "reward")}
              {r.referrerHistory.denials > 0 ? (
                <>
                  , <strong className="font-semibold text-red-700">{r.referrerHistory.denials} denied before</strong>
                </>
              ) : (
                ", none denied"
              )}
            </p>
          )}
        </div>
      ),
    },
    {
      id: "why",
      header: "Why held",
      cell: (r) => (
        <ul className="max-w-64 space-y-0.5">
          {r.reasons.map((code) => (
            <li key={code}>{REVIEW_REASONS[code]}</li>
          ))}
          <li className="text-xs text-zinc-500">
            Event <code className="font-mono">{r.event}</code>
          </li>
        </ul>
      ),
    },
    {
      id: "held",
      header: "Held",
      cell: (r) => (
        <span className="block text-xs text-zinc-600">
          <DateTime iso={r.heldAt} inline />
          <span className="block">{r.holdUntil ? <>Ends by itself <DateTime iso={r.holdUntil} inline /></> : "Waits for a person"}</span>
        </span>
      ),
    },
    {
      id: "referral",
      header: "Referral",
      cell: (r) => (
        <Link href={referralPath(projectId, r.trackingId)} className="font-mono text-xs text-brand-700 hover:underline" aria-label={`Referral ${r.trackingId}`}>
          {r.trackingId.slice(0, 8)}…
        </Link>
      ),
    },
    ...(deciding.allowed
      ? [
          {
            id: "decide",
            header: "Decide",
            cell: (r: Review) => (
              <span className="inline-flex gap-2">
                <Button size="sm" aria-label={`Approve the reward for ${who(r)}`} disabled={decide.isPending} onClick={() => run("approve", [r.trackingId])}>
                  Approve
                </Button>
                <Button size="sm" variant="secondary" aria-label={`Deny the reward for ${who(r)}`} disabled={decide.isPending} onClick={() => setAsking({ decision: "deny", ids: [r.trackingId] })}>
                  Deny
                </Button>
              </span>
            ),
          },
        ]
      : []),
  ];

  return (
    <div className="space-y-6">
      <Card
        title="Review queue"
        description="Rewards held back by the campaign's reward rules. Nothing is delivered until a reward is approved, or its hold ends; a denied reward fails."
      >
        <div className="mb-4 flex flex-wrap items-end gap-3">
          <FormField label="Held for" className="w-full sm:w-80">
            {(p) => <SelectControl control={p} value={reason} options={REASON_FILTER} onChange={(value) => setUrl({ reason: value === "all" ? null : value, page: null })} />}
          </FormField>
          {deciding.allowed && (
            <>
              <label className="inline-flex h-9 items-center gap-2 text-sm text-zinc-700">
                <input
                  type="checkbox"
                  checked={allSelected}
                  disabled={items.length === 0}
                  onChange={() => setSelected(allSelected ? new Set() : new Set(items.map((r) => r.trackingId)))}
                />
                Select all on this page
              </label>
              <Button disabled={selected.size === 0 || decide.isPending} onClick={() => setAsking({ decision: "approve", ids: [...selected] })}>
                Approve selected ({selected.size})
              </Button>
              <Button variant="secondary" disabled={selected.size === 0 || decide.isPending} onClick={() => setAsking({ decision: "deny", ids: [...selected] })}>
                Deny selected ({selected.size})
              </Button>
            </>
          )}
        </div>
        {!deciding.allowed && <p className="mb-4 text-sm text-zinc-500">{deciding.reason}</p>}
        {asking && (
          <ConfirmDecision
            key={`${asking.decision}:${asking.ids.join()}`}
            asking={asking}
            pending={decide.isPending}
            onConfirm={(note) => run(asking.decision, asking.ids, note)}
            onCancel={() => setAsking(null)}
          />
        )}
        {outcome && <Outcomes {...outcome} />}
        {decide.isError && <ErrorMessage>{toFormErrors(decide.error).message}</ErrorMessage>}
        {reviews.isError && <ErrorMessage>{toFormErrors(reviews.error).message}</ErrorMessage>}
        {reviews.isPending && !reviews.isError && <p className="text-sm text-zinc-500">Loading the review queue…</p>}
        {reviews.data && (
          <>
            <DataTable
              caption="Held rewards"
              columns={columns}
              rows={items}
              rowKey={(r) => r.trackingId}
              stale={reviews.isPlaceholderData}
              empty={reason === "all" ? "No rewards are waiting for review." : "No rewards are held for this reason."}
            />
            <Pagination
              label="Held rewards"
              page={page}
              pageSize={pageSize}
              totalCount={reviews.data.totalCount}
              hasNextPage={reviews.data.hasNextPage}
              onPageChange={(next) => setUrl({ page: next })}
              onPageSizeChange={(size) => setUrl({ pageSize: size, page: null })}
            />
          </>
        )}
      </Card>
      <ReviewDecisions projectId={projectId} />
    </div>
  );
}
