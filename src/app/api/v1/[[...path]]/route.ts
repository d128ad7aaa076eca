import { appServices } from "@/server/api/trpc/context";
import { handleRestRequest } from "@/server/api/rest/handle-rest-request";

const handler = async (req: Request) => handleRestRequest(req, await appServices());

export { handler as GET, handler as POST, handler as PUT, handler as PATCH, handler as DELETE, handler as HEAD, handler as OPTIONS };
