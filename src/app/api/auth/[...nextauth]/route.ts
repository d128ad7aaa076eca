import NextAuth from "next-auth";
import type { NextRequest } from "next/server";
import { authOptions } from "@/server/auth/auth-options";

const handler = (req: NextRequest, ctx: { params: Promise<{ nextauth: string[] }> }) => NextAuth(req, ctx, authOptions());

export { handler as GET, handler as POST };
