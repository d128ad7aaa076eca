"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { signOut } from "next-auth/react";
import { useState } from "react";
import { Button } from "@/components/ui/button";

/** Signs out and opens sign-in, coming back to `callbackUrl` (the invitation) afterwards. */
export function SwitchAccountButton({ callbackUrl }: { callbackUrl: string }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [pending, setPending] = useState(false);
  return (
    <Button
      variant="secondary"
      className="w-full"
      pending={pending}
      onClick={async () => {
        setPending(true);
        await signOut({ redirect: false });
        queryClient.clear();
        router.replace(`/sign-in?callbackUrl=${encodeURIComponent(callbackUrl)}`);
        router.refresh();
      }}
    >
      Sign in with another account
    </Button>
  );
}
