import { router } from "@/server/api/trpc/procedures";
import { createAppUserProcedure } from "./create-app-user";
import { createPortalSessionProcedure } from "./create-portal-session";
import { eraseAppUserProcedure } from "./erase-app-user";
import { exportAppUserProcedure } from "./export-app-user";
import { getAppUserProcedure } from "./get-app-user";
import { getAppUserByClientIdProcedure } from "./get-app-user-by-client-id";
import { listAppUserEventsProcedure } from "./list-app-user-events";
import { listAppUsersProcedure } from "./list-app-users";
import { listAttributeKeysProcedure } from "./list-attribute-keys";
import { updateAppUserProcedure } from "./update-app-user";

export const appUsersRouter = router({
  list: listAppUsersProcedure,
  attributeKeys: listAttributeKeysProcedure,
  create: createAppUserProcedure,
  get: getAppUserProcedure,
  getByClientId: getAppUserByClientIdProcedure,
  update: updateAppUserProcedure,
  listEvents: listAppUserEventsProcedure,
  erase: eraseAppUserProcedure,
  export: exportAppUserProcedure,
  createPortalSession: createPortalSessionProcedure,
});
