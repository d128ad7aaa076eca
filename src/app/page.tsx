import { redirect } from "next/navigation";
import { isSignedIn } from "@/lib/server/caller";

export default async function Home() {
  redirect((await isSignedIn()) ? "/dashboard" : "/sign-in");
}
