import { router } from "@/server/api/trpc/procedures";
import { createProjectProcedure } from "./create-project";
import { deleteProjectProcedure } from "./delete-project";
import { getProjectProcedure } from "./get-project";
import { listProjectsProcedure } from "./list-projects";
import { rotateProjectSecretProcedure } from "./rotate-project-secret";
import { rotatePublishableKeyProcedure } from "./rotate-publishable-key";
import { setProjectIconProcedure } from "./set-project-icon";
import { updateProjectProcedure } from "./update-project";

export const projectsRouter = router({
  list: listProjectsProcedure,
  create: createProjectProcedure,
  get: getProjectProcedure,
  update: updateProjectProcedure,
  delete: deleteProjectProcedure,
  rotateSecret: rotateProjectSecretProcedure,
  rotatePublishableKey: rotatePublishableKeyProcedure,
  setIcon: setProjectIconProcedure,
});
