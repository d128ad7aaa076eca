import { buildOpenApiDocument } from "@/server/api/openapi/document";
import { answer, type ApiAnswer, type ApiRequest } from "@/server/http/api-exchange";
import { requestOrigin } from "@/server/http/public-origin";

export const OPENAPI_DOCUMENT_PATH = "/api/v1/openapi.json";

// The document only changes with the code; one per origin the service is reached at.
const documents = new Map<string, string>();

/** The OpenAPI document, with the server URL the client used (behind a proxy, the forwarded host and scheme). */
export async function serveOpenApiDocument(req: Pick<ApiRequest, "url" | "headers">): Promise<ApiAnswer> {
  const origin = requestOrigin(req.headers, new URL(req.url).origin);
  let document = documents.get(origin);
  if (!document) {
    if (documents.size >= 16) documents.clear(); // Host is the client's to choose: keep the cache bounded
    documents.set(origin, (document = JSON.stringify(buildOpenApiDocument(origin))));
  }
  return answer(200, { "content-type": "application/json", "access-control-allow-origin": "*" }, document);
}
