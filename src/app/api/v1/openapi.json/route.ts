import { serveOpenApiDocument } from "@/server/api/serve-openapi-document";

export const GET = serveOpenApiDocument;
