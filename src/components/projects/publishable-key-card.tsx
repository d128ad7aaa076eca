"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { usePermission } from "@/components/dashboard/permissions";
import { ErrorMessage } from "@/components/ui/alert";
import { Card } from "@/components/ui/card";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { CopyButton } from "@/components/ui/copy-button";
import { toFormErrors } from "@/lib/errors";
import { useTRPC } from "@/lib/trpc";
import type { Project } from "@/lib/trpc-types";

/** The `pk_` key: shown in full (it is not a secret), copied, rotated. */
export function PublishableKeyCard({ project }: { project: Project }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const permission = usePermission("projects.rotateSecret");
  const rotate = useMutation(
    trpc.projects.rotatePublishableKey.mutationOptions({
      onSuccess: (updated) => queryClient.setQueryData(trpc.projects.get.queryKey({ projectId: updated.uniqueId }), updated),
    }),
  );
  return (
    <Card
      title="Publishable key"
      description="The web widget (data-key) and your mobile apps identify the project with this key. It is not a secret: browsers may use it only from the allowed origins below."
    >
      <div className="space-y-4">
        <div className="flex min-w-0 items-center gap-2">
          {/* A group, so that the label is read with the key (a bare code's label is ignored). */}
          <code role="group" aria-label="Publishable key" className="truncate rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-xs">
            {project.publishableKey}
          </code>
          <CopyButton value={project.publishableKey} label="publishable key" />
        </div>
        {rotate.isError && <ErrorMessage>{toFormErrors(rotate.error).message}</ErrorMessage>}
        <ConfirmButton
          question="Pages and apps with the current key stop working at once. Rotate?"
          confirmLabel="Rotate now"
          pending={rotate.isPending}
          disabledReason={permission.reason}
          onConfirm={() => rotate.mutate({ projectId: project.uniqueId })}
        >
          Rotate publishable key
        </ConfirmButton>
      </div>
    </Card>
  );
}
