import { buildOpenApiDocument } from "@/server/api/openapi";

export function GET(req: Request) {
  return Response.json(buildOpenApiDocument(new URL(req.url).origin), {
    headers: { "access-control-allow-origin": "*" },
  });
}
