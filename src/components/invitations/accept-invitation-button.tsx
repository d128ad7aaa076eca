"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { ErrorMessage } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { toFormErrors } from "@/lib/errors";
import { switchOrganization } from "@/server/dashboard/switch-organization";
import { useTRPC } from "@/lib/trpc";

/** Accepts, then opens the dashboard acting for the organisation just joined. */
export function AcceptInvitationButton({ token, organizationName }: { token: string; organizationName: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const accept = useMutation(
    trpc.invitations.accept.mutationOptions({
      onSuccess: async ({ organizationId }) => {
        await switchOrganization(organizationId);
        queryClient.clear();
        router.push("/dashboard");
        router.refresh();
      },
    }),
  );
  return (
    <div className="space-y-3">
      {accept.isError && <ErrorMessage>{toFormErrors(accept.error).message}</ErrorMessage>}
      <Button className="w-full" pending={accept.isPending || accept.isSuccess} onClick={() => accept.mutate({ token })}>
        Join {organizationName}
      </Button>
    </div>
  );
}
