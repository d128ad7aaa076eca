import { serveOpenApiDocument } from "@/server/api/openapi/serve-document";

export const GET = serveOpenApiDocument;
