"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { usePermission } from "@/components/dashboard/permissions";
import { Button, type ButtonSize } from "@/components/ui/button";
import { toFormErrors } from "@/lib/errors";
import { useTRPC } from "@/lib/trpc";
import type { Delivery } from "./types";

/**
 * The one Retry of a delivery: re-sends a Failed one, or sends a Pending one now. Shown when the
 * server would accept it; afterwards every delivery view refetches (and polls while it is Pending).
 */
export function RetryDeliveryButton({ projectId, delivery, size = "md" }: { projectId: string; delivery: Delivery; size?: ButtonSize }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const permission = usePermission("deliveries.retry");
  const retry = useMutation(
    trpc.deliveries.retry.mutationOptions({
      onSettled: () =>
        Promise.all([
          queryClient.invalidateQueries({ queryKey: trpc.deliveries.pathKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.referrals.get.pathKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.webhooks.listDeliveryLogs.pathKey() }),
        ]),
    }),
  );
  if (!delivery.retryable || !permission.allowed) return null;
  const label = delivery.status === "Pending" ? "Send now" : "Retry";
  return (
    <span className="inline-flex flex-col gap-1">
      <Button
        size={size}
        variant="secondary"
        pending={retry.isPending}
        aria-label={`${label} delivery ${delivery.deliveryId}`}
        onClick={() => retry.mutate({ projectId, deliveryId: delivery.deliveryId })}
      >
        {label}
      </Button>
      {retry.isError && (
        <span role="alert" className="text-xs text-red-700">
          {toFormErrors(retry.error).message}
        </span>
      )}
    </span>
  );
}
