import { router } from "@/server/api/trpc/procedures";
import { getInboundHooksProcedure } from "./get-inbound-hooks";
import { listInboundEventsProcedure } from "./list-inbound-events";
import { rotateInboundTokenProcedure } from "./rotate-inbound-token";
import { updateInboundHooksProcedure } from "./update-inbound-hooks";

export const inboundHooksRouter = router({
  get: getInboundHooksProcedure,
  update: updateInboundHooksProcedure,
  rotateToken: rotateInboundTokenProcedure,
  listEvents: listInboundEventsProcedure,
});
