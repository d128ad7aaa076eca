import { buildOpenApiDocument } from "@/server/api/openapi";

/** The address the client used: behind a proxy, the forwarded host and scheme. */
function publicOrigin(req: Request): string {
  const url = new URL(req.url);
  const host = req.headers.get("x-forwarded-host") ?? req.headers.get("host") ?? url.host;
  const proto = req.headers.get("x-forwarded-proto") ?? url.protocol.replace(":", "");
  return `${proto.split(",")[0]!.trim()}://${host.split(",")[0]!.trim()}`;
}

export function GET(req: Request) {
  return Response.json(buildOpenApiDocument(publicOrigin(req)), {
    headers: { "access-control-allow-origin": "*" },
  });
}
