import { router } from "@/server/api/trpc/procedures";
import { getDeliveryProcedure } from "./get-delivery";
import { listDeliveriesProcedure } from "./list-deliveries";
import { retryDeliveriesProcedure } from "./retry-deliveries";
import { retryDeliveryProcedure } from "./retry-delivery";

export const deliveriesRouter = router({
  list: listDeliveriesProcedure,
  get: getDeliveryProcedure,
  retry: retryDeliveryProcedure,
  retryMany: retryDeliveriesProcedure,
});
