import { redirect } from "next/navigation";
import { isSignedIn } from "@/server/dashboard/caller";

export default async function Home() {
  redirect((await isSignedIn()) ? "/dashboard" : "/sign-in");
}
