import { router } from "@/server/api/trpc/procedures";
import { createWebhookProcedure } from "./create-webhook";
import { deleteWebhookProcedure } from "./delete-webhook";
import { getWebhookProcedure } from "./get-webhook";
import { getWebhookHealthHistoryProcedure } from "./get-webhook-health-history";
import { listDeliveryLogsProcedure } from "./list-delivery-logs";
import { listWebhooksProcedure } from "./list-webhooks";
import { retryDeliveryLogByIdProcedure, retryDeliveryLogProcedure } from "./retry-delivery-log";
import { rotateWebhookSecretProcedure } from "./rotate-webhook-secret";
import { sendTestEventProcedure } from "./send-test-event";
import { updateWebhookProcedure } from "./update-webhook";

export const webhooksRouter = router({
  list: listWebhooksProcedure,
  create: createWebhookProcedure,
  get: getWebhookProcedure,
  update: updateWebhookProcedure,
  delete: deleteWebhookProcedure,
  listDeliveryLogs: listDeliveryLogsProcedure,
  retryDeliveryLog: retryDeliveryLogProcedure,
  retryDeliveryLogById: retryDeliveryLogByIdProcedure,
  sendTest: sendTestEventProcedure,
  healthHistory: getWebhookHealthHistoryProcedure,
  rotateSecret: rotateWebhookSecretProcedure,
});
