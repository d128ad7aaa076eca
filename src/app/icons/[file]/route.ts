import { getConfig } from "@/server/config";
import { getDb } from "@/server/db/client";
import { iconStore } from "@/server/domain/icons/icon-store";
import { serveIcon } from "@/server/http/serve-icon";

/** Uploaded app icons, content-addressed: /icons/{sha256}.{png|jpg|webp}. */
export async function GET(request: Request, { params }: { params: Promise<{ file: string }> }) {
  const { file } = await params;
  return serveIcon(file, request.headers.get("if-none-match"), iconStore(await getDb(), getConfig()));
}
