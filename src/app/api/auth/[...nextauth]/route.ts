import { handleAuthRequest } from "@/server/auth/handle-auth-request";

export { handleAuthRequest as GET, handleAuthRequest as POST };
