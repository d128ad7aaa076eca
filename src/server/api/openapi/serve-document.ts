import { buildOpenApiDocument } from "@/server/api/openapi/document";
import { requestOrigin } from "@/server/http/public-origin";

/** Where the document is served: its route file, and in production the Node server directly (direct-routes.ts). */
export const OPENAPI_DOCUMENT_PATH = "/api/v1/openapi.json";

// The document only changes with the code; one per origin the service is reached at.
const documents = new Map<string, string>();

export async function serveOpenApiDocument(req: Request): Promise<Response> {
  // The address the client used: behind a proxy, the forwarded host and scheme.
  const origin = requestOrigin(req.headers, new URL(req.url).origin);
  let document = documents.get(origin);
  if (!document) {
    if (documents.size >= 16) documents.clear(); // Host is the client's to choose: keep the cache bounded
    documents.set(origin, (document = JSON.stringify(buildOpenApiDocument(origin))));
  }
  return new Response(document, {
    headers: { "content-type": "application/json", "access-control-allow-origin": "*" },
  });
}
