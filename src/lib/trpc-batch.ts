/** Most calls one tRPC batch may carry: the server refuses larger batches, the dashboard's link never sends one. */
export const MAX_TRPC_BATCH_SIZE = 10;
