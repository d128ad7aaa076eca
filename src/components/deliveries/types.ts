import type { RouterOutputs } from "@/lib/trpc-types";

export type Delivery = RouterOutputs["deliveries"]["list"]["items"][number];
export type DeliveryDetail = RouterOutputs["deliveries"]["get"];
export type DeliveryAttempt = DeliveryDetail["attempts"][number];
