"use client";

import { useQuery } from "@tanstack/react-query";
import { AppUserLink } from "@/components/app-users/app-user-link";
import { ExportButton, exportUrl } from "@/components/exports/export-button";
import { count } from "@/components/overview/format";
import { ErrorMessage } from "@/components/ui/alert";
import { Card } from "@/components/ui/card";
import { DataTable, type Column } from "@/components/ui/data-table";
import { toFormErrors } from "@/lib/errors";
import { MAX_LEADERBOARD_LIMIT } from "@/lib/schemas/stats";
import { useTRPC } from "@/lib/trpc";
import type { RouterOutputs } from "@/lib/trpc-types";

type Entry = RouterOutputs["stats"]["leaderboard"]["items"][number] & { rank: number };

/** The project's best referrers of all time (the REST leaderboard's order), ranked, with its CSV export. */
export function Leaderboard({ projectId }: { projectId: string }) {
  const trpc = useTRPC();
  const board = useQuery(trpc.stats.leaderboard.queryOptions({ projectId, limit: MAX_LEADERBOARD_LIMIT }));
  const rows: Entry[] = (board.data?.items ?? []).map((e, i) => ({ ...e, rank: i + 1 }));
  const columns: Column<Entry>[] = [
    { id: "rank", header: "Rank", align: "right", cell: (e) => e.rank },
    { id: "referrer", header: "Referrer", cell: (e) => <AppUserLink projectId={projectId} clientProvidedId={e.clientProvidedId} uniqueId={e.uniqueId} /> },
    { id: "successful", header: "Successful referrals", align: "right", cell: (e) => count(e.successfulReferrals) },
    { id: "given", header: "Referrals given", align: "right", cell: (e) => count(e.totalReferralsGiven) },
    {
      id: "rate",
      header: "Success rate",
      align: "right",
      cell: (e) => (e.totalReferralsGiven > 0 ? `${((e.successfulReferrals / e.totalReferralsGiven) * 100).toFixed(0)}%` : "—"),
    },
  ];
  return (
    <Card
      title="Leaderboard"
      description={`The ${MAX_LEADERBOARD_LIMIT} referrers with the most successful referrals (rewards claimed) of all time; ties go to the one who referred more.`}
      actions={<ExportButton label="Export CSV" url={exportUrl(projectId, "leaderboard")} />}
    >
      {board.isError && <ErrorMessage>{toFormErrors(board.error).message}</ErrorMessage>}
      {board.isPending && !board.isError && <p className="text-sm text-zinc-500">Loading the leaderboard…</p>}
      {board.data && <DataTable caption="Leaderboard" columns={columns} rows={rows} rowKey={(e) => e.uniqueId} empty="No referral has been rewarded yet." />}
    </Card>
  );
}
