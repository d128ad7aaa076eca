import { router } from "@/server/api/trpc/procedures";
import { getDeliveryProcedure } from "./get-delivery";
import { listDeliveriesProcedure } from "./list-deliveries";

export const deliveriesRouter = router({
  list: listDeliveriesProcedure,
  get: getDeliveryProcedure,
});
