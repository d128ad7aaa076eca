import { fromFetchRequest, toResponse } from "@/server/http/api-exchange";
import { serveWidget } from "@/server/http/widget-files";

/**
 * Only `next dev` gets here: `next start` answers /sdk/v1/ before routing, precompressed, with an ETag
 * per representation (src/server/http/direct-routes.ts). Next.js gzips whatever a route sends and drops
 * the Content-Encoding it sets, so this sends the plain file, uncached, with no ETag to contradict.
 */
export async function GET(request: Request) {
  const response = toResponse(await serveWidget(fromFetchRequest(new Request(request.url)), { watch: true }));
  response.headers.delete("etag");
  response.headers.set("cache-control", "no-store");
  return response;
}
