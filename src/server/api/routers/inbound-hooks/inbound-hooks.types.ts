import { z } from "zod";
import { pageOf, projectIdInput, withPath } from "@/lib/schemas/common";
import { inboundEventDtoSchema, inboundEventListQuery, updateInboundHooksBody } from "@/lib/schemas/inbound-hooks";

export const inboundHooksPathInput = z.object(projectIdInput);
export const updateInboundHooksInput = withPath(updateInboundHooksBody, projectIdInput);
export const listInboundEventsInput = inboundEventListQuery.safeExtend(projectIdInput);
export const inboundEventPageSchema = pageOf(inboundEventDtoSchema).meta({ id: "InboundEventPage" });
