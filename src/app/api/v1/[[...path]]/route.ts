import { handleRestRequest } from "@/server/api/rest/handle-rest-request";
import { getDb } from "@/server/db/client";

const handler = async (req: Request) => handleRestRequest(req, await getDb());

export { handler as GET, handler as POST, handler as PUT, handler as PATCH, handler as DELETE, handler as HEAD, handler as OPTIONS };
