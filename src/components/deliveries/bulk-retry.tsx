"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { usePermission } from "@/components/dashboard/permissions";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { BULK_RETRY_MAX } from "@/lib/schemas/deliveries";
import { toFormErrors } from "@/lib/errors";
import { useTRPC } from "@/lib/trpc";

/** The filter as the search sends it (status as typed, any case). */
type Filter = { search?: string; status?: string; webhookId?: string; event?: string; from?: string; to?: string };
type Started = { count: number; filter: Filter };

/**
 * Retry everything the current filter selects, then its progress: of the deliveries queued, how many
 * have had their attempt (no longer Pending among those the filter selects, minus any other filter).
 */
export function BulkRetry({ projectId, filter, selected, selectedExact }: { projectId: string; filter: Filter; selected: number; selectedExact: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const permission = usePermission("deliveries.retry");
  const [started, setStarted] = useState<Started | null>(null);
  const retry = useMutation(
    trpc.deliveries.retryMany.mutationOptions({
      onSuccess: (result, input) => {
        const { projectId: _project, ...rest } = input;
        setStarted({ count: result.count, filter: rest });
        return queryClient.invalidateQueries({ queryKey: trpc.deliveries.pathKey() });
      },
    }),
  );
  // What is still to send of the queued ones: the same filter, Pending only.
  const { status: _status, ...unfiltered } = started?.filter ?? {};
  const remaining = useQuery({
    ...trpc.deliveries.list.queryOptions({ projectId, ...unfiltered, status: "Pending", page: 1, pageSize: 1 }),
    enabled: started !== null && started.count > 0,
    refetchInterval: (query) => ((query.state.data?.totalCount ?? 1) > 0 ? 1000 : false),
  });
  if (!permission.allowed) return null;
  const pending = Math.min(remaining.data?.totalCount ?? started?.count ?? 0, started?.count ?? 0);
  const done = started ? started.count - pending : 0;
  return (
    <div className="flex flex-col items-end gap-1">
      <ConfirmButton
        size="sm"
        question={`Send again every failed or pending delivery these filters select (${selected.toLocaleString("en-GB")} listed)?`}
        confirmLabel="Retry them"
        pending={retry.isPending}
        disabledReason={!selectedExact || selected > BULK_RETRY_MAX ? `More than ${BULK_RETRY_MAX.toLocaleString("en-GB")} selected: narrow the filters.` : null}
        onConfirm={() => retry.mutate({ projectId, ...filter })}
      >
        Retry all selected
      </ConfirmButton>
      {retry.isError && (
        <p role="alert" className="text-sm text-red-700">
          {toFormErrors(retry.error).message}
        </p>
      )}
      {started && (
        <div role="status" className="w-64 text-sm text-zinc-700">
          {started.count === 0 ? (
            "Nothing to retry: none of them can be sent again."
          ) : (
            <>
              <progress className="w-full" max={started.count} value={done} aria-label="Bulk retry progress" />
              {done.toLocaleString("en-GB")} of {started.count.toLocaleString("en-GB")} sent{pending === 0 ? ": done." : "…"}
            </>
          )}
        </div>
      )}
    </div>
  );
}
