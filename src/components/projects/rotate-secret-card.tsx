"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { DateTime } from "@/components/ui/date-time";
import type { OverlapHours } from "@/lib/schemas/rotation";
import { usePermission } from "@/components/dashboard/permissions";
import { ErrorMessage } from "@/components/ui/alert";
import { OverlapSelect, rotationQuestion } from "@/components/ui/overlap-select";
import { Card } from "@/components/ui/card";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { SecretOnce } from "@/components/ui/secret-once";
import { toFormErrors } from "@/lib/errors";
import { useTRPC } from "@/lib/trpc";
import type { Project } from "@/lib/trpc-types";

export function RotateSecretCard({ project }: { project: Project }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const permission = usePermission("projects.rotateSecret");
  const [overlapHours, setOverlapHours] = useState<OverlapHours>(0);
  const rotate = useMutation(
    trpc.projects.rotateSecret.mutationOptions({
      // The hint shown in the details changes with the secret.
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.projects.get.queryKey({ projectId: project.uniqueId }) }),
    }),
  );
  return (
    <Card title="Project secret" description="Your backend and apps authenticate to the client-library API with the sk_ project secret.">
      <div className="space-y-4">
        {rotate.data ? (
          <>
            <SecretOnce label="Project secret" secret={rotate.data.projectSecret} warning={rotate.data.warning} onDismiss={() => rotate.reset()} />
            {rotate.data.previousSecretExpiresAt && (
              <p className="text-sm text-zinc-700">
                The previous secret keeps working until <DateTime iso={rotate.data.previousSecretExpiresAt} />: switch your backends before then.
              </p>
            )}
          </>
        ) : (
          <p className="text-sm text-zinc-600">
            Current secret starts with <code className="rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-xs">{project.projectSecretHint}</code>.
            Rotating issues a new secret; the current one stops working at once, or after the overlap you choose, so backends can switch without downtime.
          </p>
        )}
        <OverlapSelect what="secret" value={overlapHours} onChange={setOverlapHours} />
        {rotate.isError && <ErrorMessage>{toFormErrors(rotate.error).message}</ErrorMessage>}
        <ConfirmButton
          question={rotationQuestion("secret", overlapHours)}
          confirmLabel="Rotate now"
          pending={rotate.isPending}
          disabledReason={permission.reason}
          onConfirm={() => rotate.mutate({ projectId: project.uniqueId, overlapHours })}
        >
          Rotate secret
        </ConfirmButton>
      </div>
    </Card>
  );
}
