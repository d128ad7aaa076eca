"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { PermissionNote, usePermission } from "@/components/dashboard/permissions";
import { ErrorMessage } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { FormField, inputClasses } from "@/components/ui/form-field";
import { toFormErrors } from "@/lib/errors";
import { useTRPC } from "@/lib/trpc";
import type { Project } from "@/lib/trpc-types";

export function DeleteProjectCard({ project }: { project: Project }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const [typed, setTyped] = useState("");
  const permission = usePermission("projects.delete");
  const remove = useMutation(
    trpc.projects.delete.mutationOptions({
      onSuccess: async () => {
        queryClient.removeQueries({ queryKey: trpc.projects.get.queryKey({ projectId: project.uniqueId }) });
        await queryClient.invalidateQueries({ queryKey: trpc.projects.list.queryKey() });
        router.push("/dashboard");
      },
    }),
  );
  return (
    <Card tone="danger" title="Delete project" description="Deletes the project with its app users, referrals, campaign, webhooks and activity. This cannot be undone.">
      <form
        className="max-w-xl space-y-4"
        aria-label="Delete project"
        onSubmit={(e) => {
          e.preventDefault();
          if (typed === project.name) remove.mutate({ projectId: project.uniqueId });
        }}
      >
        <PermissionNote id="delete-project-denied" reason={permission.reason} />
        <FormField label="Type the project name to confirm" hint={<>Enter <strong className="font-semibold">{project.name}</strong> exactly.</>}>
          {(p) => <input {...p} disabled={!permission.allowed} value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" className={inputClasses} />}
        </FormField>
        {remove.isError && <ErrorMessage>{toFormErrors(remove.error).message}</ErrorMessage>}
        <Button
          type="submit"
          variant="danger"
          disabled={!permission.allowed || typed !== project.name}
          aria-describedby={permission.allowed ? undefined : "delete-project-denied"}
          pending={remove.isPending}
        >
          Delete project
        </Button>
      </form>
    </Card>
  );
}
