import { router } from "@/server/api/trpc/procedures";
import { listDeliveriesProcedure } from "./list-deliveries";

export const deliveriesRouter = router({
  list: listDeliveriesProcedure,
});
