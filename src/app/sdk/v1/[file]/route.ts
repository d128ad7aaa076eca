import { loadAssets, respond } from "@/sdk/web/serve";

/** The web widget: /sdk/v1/referloop.js (classic script), /sdk/v1/referloop.mjs (ES module), its UI chunk. */
export async function GET(request: Request, { params }: { params: Promise<{ file: string }> }) {
  const { file } = await params;
  const { status, headers, body } = respond(loadAssets()?.get(file), {
    acceptEncoding: request.headers.get("accept-encoding") ?? undefined,
    ifNoneMatch: request.headers.get("if-none-match") ?? undefined,
  });
  return new Response(body, { status, headers });
}
