"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { ErrorMessage } from "@/components/ui/alert";
import { Card } from "@/components/ui/card";
import { Pagination } from "@/components/ui/pagination";
import { ReferralTable } from "@/components/referrals/referral-table";
import { toFormErrors } from "@/lib/errors";
import { useTRPC } from "@/lib/trpc";

const PAGE_SIZE = 10;

const TEXT = {
  given: { title: "Referrals given", description: "People who arrived through this user's link.", empty: "No one has arrived through this user's link yet." },
  received: { title: "Referrals received", description: "How this user arrived.", empty: "This user did not arrive through a referral link." },
} as const;

/** One direction of a user's referrals, paged on its own. */
export function UserReferralsCard({ projectId, uniqueId, direction }: { projectId: string; uniqueId: string; direction: "given" | "received" }) {
  const trpc = useTRPC();
  const [page, setPage] = useState(1);
  const referrals = useQuery({
    ...trpc.referrals.listForAppUser.queryOptions({ projectId, uniqueId, direction, page, pageSize: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  const text = TEXT[direction];
  return (
    <Card title={text.title} description={text.description}>
      {referrals.isError && <ErrorMessage>{toFormErrors(referrals.error).message}</ErrorMessage>}
      {referrals.isPending && !referrals.isError && <p className="text-sm text-zinc-500">Loading…</p>}
      {referrals.data && (
        <>
          <ReferralTable
            projectId={projectId}
            caption={text.title}
            referrals={referrals.data.items}
            hide={[direction === "given" ? "referrer" : "referee"]}
            stale={referrals.isPlaceholderData}
            empty={text.empty}
          />
          {referrals.data.totalCount > PAGE_SIZE && (
            <Pagination
              label={text.title}
              page={page}
              pageSize={PAGE_SIZE}
              totalCount={referrals.data.totalCount}
              totalCountExact={referrals.data.totalCountExact}
              hasNextPage={referrals.data.hasNextPage}
              onPageChange={setPage}
            />
          )}
        </>
      )}
    </Card>
  );
}
