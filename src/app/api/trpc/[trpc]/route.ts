import { cookies } from "next/headers";
import { ACTIVE_ORGANIZATION_COOKIE, appServices } from "@/server/api/trpc/context";
import { handleTrpcRequest } from "@/server/api/trpc/handle-trpc-request";
import { sessionToken } from "@/server/auth/session";

const handler = async (req: Request) =>
  handleTrpcRequest(req, await appServices(), async () => ({
    token: await sessionToken(),
    organizationId: (await cookies()).get(ACTIVE_ORGANIZATION_COOKIE)?.value ?? null,
  }));

export { handler as GET, handler as POST };
