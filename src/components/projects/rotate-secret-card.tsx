"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { usePermission } from "@/components/dashboard/permissions";
import { ErrorMessage } from "@/components/ui/alert";
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
          <SecretOnce label="Project secret" secret={rotate.data.projectSecret} warning={rotate.data.warning} onDismiss={() => rotate.reset()} />
        ) : (
          <p className="text-sm text-zinc-600">
            Current secret starts with <code className="rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-xs">{project.projectSecretHint}</code>.
            Rotating issues a new secret; the current one stops working immediately.
          </p>
        )}
        {rotate.isError && <ErrorMessage>{toFormErrors(rotate.error).message}</ErrorMessage>}
        <ConfirmButton
          question="The current secret stops working at once. Rotate?"
          confirmLabel="Rotate now"
          pending={rotate.isPending}
          disabledReason={permission.reason}
          onConfirm={() => rotate.mutate({ projectId: project.uniqueId })}
        >
          Rotate secret
        </ConfirmButton>
      </div>
    </Card>
  );
}
