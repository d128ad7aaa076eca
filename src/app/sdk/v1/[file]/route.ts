import { loadAssets, respond } from "../assets";

/** The web widget: /sdk/v1/referloop.js (classic script), /sdk/v1/referloop.mjs (ES module), its UI chunk. */
export async function GET(request: Request, { params }: { params: Promise<{ file: string }> }) {
  const { file } = await params;
  return respond(loadAssets()?.get(file), request.headers);
}
