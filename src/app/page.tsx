import { redirect } from "next/navigation";
import { sessionUserId } from "@/server/auth/session";

export default async function Home() {
  redirect((await sessionUserId()) ? "/dashboard" : "/sign-in");
}
