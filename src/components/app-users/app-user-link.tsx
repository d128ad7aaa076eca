import Link from "next/link";
import { appUserByClientIdPath, appUserPath } from "./paths";

type AppUserLinkProps = { projectId: string; clientProvidedId: string; uniqueId?: string };

/** An app user's client id, linking to their page (directly, or through the client-id lookup). */
export function AppUserLink({ projectId, clientProvidedId, uniqueId }: AppUserLinkProps) {
  const href = uniqueId ? appUserPath(projectId, uniqueId) : appUserByClientIdPath(projectId, clientProvidedId);
  return (
    <Link href={href} className="font-medium break-all text-brand-700 hover:underline">
      {clientProvidedId}
    </Link>
  );
}
