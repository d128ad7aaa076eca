import { appServices } from "@/server/api/trpc/context";
import { handleSdkRequest } from "@/server/api/rest/handle-sdk-request";

const handler = async (req: Request) => handleSdkRequest(req, await appServices());

export { handler as GET, handler as POST, handler as PUT, handler as PATCH, handler as DELETE, handler as HEAD, handler as OPTIONS };
