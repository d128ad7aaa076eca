import { buildOpenApiDocument } from "@/server/api/openapi";

/** The address the client used: behind a proxy, the forwarded host and scheme. */
function publicOrigin(req: Request): string {
  const url = new URL(req.url);
  const host = req.headers.get("x-forwarded-host") ?? req.headers.get("host") ?? url.host;
  const proto = req.headers.get("x-forwarded-proto") ?? url.protocol.replace(":", "");
  return `${proto.split(",")[0]!.trim()}://${host.split(",")[0]!.trim()}`;
}

// The document only changes with the code; one per origin the service is reached at.
const documents = new Map<string, string>();

export function GET(req: Request) {
  const origin = publicOrigin(req);
  let document = documents.get(origin);
  if (!document) {
    if (documents.size >= 16) documents.clear(); // Host is the client's to choose: keep the cache bounded
    documents.set(origin, (document = JSON.stringify(buildOpenApiDocument(origin))));
  }
  return new Response(document, {
    headers: { "content-type": "application/json", "access-control-allow-origin": "*" },
  });
}
