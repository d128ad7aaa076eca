import { router } from "@/server/api/trpc/procedures";
import { createApiKeyProcedure } from "./create-api-key";
import { deleteApiKeyProcedure } from "./delete-api-key";
import { listApiKeysProcedure } from "./list-api-keys";
import { rollApiKeyProcedure } from "./roll-api-key";

// Managed from the dashboard only: an API key cannot mint or revoke keys.
export const apiKeysRouter = router({ list: listApiKeysProcedure, create: createApiKeyProcedure, delete: deleteApiKeyProcedure, roll: rollApiKeyProcedure });
