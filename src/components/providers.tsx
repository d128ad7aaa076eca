"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink, httpLink, isNonJsonSerializable, splitLink } from "@trpc/client";
import { useState, type ReactNode } from "react";
import type { AppRouter } from "@/server/api/root";
import { TRPCProvider } from "@/lib/trpc";
import { MAX_TRPC_BATCH_SIZE, UNBATCHED_PROCEDURES } from "@/lib/trpc-batch";
import { useFocusFirstError } from "@/components/ui/focus-first-error";

function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 10_000,
        // 4xx answers (not found, forbidden, validation) will not change on a retry.
        retry: (failureCount, error) => {
          const status = (error as { data?: { httpStatus?: number } }).data?.httpStatus;
          return failureCount < 2 && !(status && status >= 400 && status < 500);
        },
      },
    },
  });
}

export function Providers({ children }: { children: ReactNode }) {
  useFocusFirstError();
  // One client per browser tab, created lazily so server renders never share state between users.
  const [queryClient] = useState(makeQueryClient);
  const [trpcClient] = useState(() =>
    createTRPCClient<AppRouter>({
      links: [
        // Uploads (FormData: the app icon) go unbatched, as multipart form data, and so do the calls the
        // server never batches (the signed-out ones); everything else as batched JSON.
        splitLink({
          condition: (op) => isNonJsonSerializable(op.input) || UNBATCHED_PROCEDURES.has(op.path),
          true: httpLink({ url: "/api/trpc" }),
          false: httpBatchLink({ url: "/api/trpc", maxItems: MAX_TRPC_BATCH_SIZE }),
        }),
      ],
    }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}
