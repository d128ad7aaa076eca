"use client";

import { useQuery } from "@tanstack/react-query";
import { ErrorMessage } from "@/components/ui/alert";
import { CopyButton } from "@/components/ui/copy-button";
import { groupByTag } from "./group-operations";
import { Markdown } from "./markdown";
import { isOpenApiDocument, type OpenApiDocument } from "./openapi-types";
import { OperationView, operationAnchor } from "./operation-view";
import { SchemaView, schemaAnchor } from "./schema-view";

async function fetchDocument(url: string): Promise<OpenApiDocument> {
  const res = await fetch(url, { headers: { accept: "application/json" } });
  if (!res.ok) throw new Error(`The API document could not be loaded (HTTP ${res.status}).`);
  const body: unknown = await res.json();
  if (!isOpenApiDocument(body)) throw new Error("The API document is not an OpenAPI document.");
  return body;
}

/**
 * The server URL to show. A document fetched from this same app describes this app, and behind
 * `next start` the server only knows its internal host (it writes `localhost:<port>`), so the
 * browser's own origin is the address a reader can actually use.
 */
function displayedBaseUrl(serverUrl: string | undefined, documentUrl: string): string | undefined {
  if (!serverUrl || /^https?:/i.test(documentUrl)) return serverUrl;
  try {
    return new URL(new URL(serverUrl, window.location.origin).pathname, window.location.origin).href.replace(/\/$/, "");
  } catch {
    return serverUrl;
  }
}

const tagAnchor = (name: string) => `tag-${name.replace(/[^A-Za-z0-9_-]/g, "-")}`;

/** The OpenAPI document at `url`, rendered: description, operations by tag, and schemas. */
export function ApiReference({ url }: { url: string }) {
  const query = useQuery({ queryKey: ["openapi-document", url], queryFn: () => fetchDocument(url), staleTime: 60_000 });
  if (query.isPending) return <p className="text-sm text-zinc-500">Loading the API reference…</p>;
  if (query.isError) return <ErrorMessage>{query.error.message}</ErrorMessage>;
  const doc = query.data;
  const groups = groupByTag(doc);
  const schemas = Object.entries(doc.components?.schemas ?? {});
  const baseUrl = displayedBaseUrl(doc.servers?.[0]?.url, url);
  return (
    <div className="grid gap-8 lg:grid-cols-[15rem_minmax(0,1fr)]">
      <nav aria-label="API reference contents" className="hidden lg:block">
        <div className="sticky top-6 max-h-[calc(100vh-3rem)] space-y-4 overflow-y-auto text-sm">
          {groups.map((group) => (
            <div key={group.name}>
              <a href={`#${tagAnchor(group.name)}`} className="font-semibold text-zinc-900 hover:text-brand-700">
                {group.name}
              </a>
              <ul className="mt-1.5 space-y-1">
                {group.operations.map(({ path, method, op }) => (
                  <li key={`${method} ${path}`}>
                    <a href={`#${operationAnchor(method, path, op)}`} className="flex items-baseline gap-2 text-zinc-600 hover:text-zinc-900">
                      <span className="w-11 shrink-0 font-mono text-[0.65rem] font-bold uppercase">{method}</span>
                      <span className="text-xs" title={path}>
                        {op.summary ?? path}
                      </span>
                    </a>
                  </li>
                ))}
              </ul>
            </div>
          ))}
          {schemas.length > 0 && (
            <a href="#schemas" className="block font-semibold text-zinc-900 hover:text-brand-700">
              Schemas
            </a>
          )}
        </div>
      </nav>

      <div className="min-w-0 space-y-10">
        <section aria-labelledby="api-overview" className="rounded-lg border border-zinc-200 bg-white p-5 shadow-sm">
          <div className="flex flex-wrap items-baseline gap-3">
            <h2 id="api-overview" className="text-lg font-semibold text-zinc-900">
              {doc.info.title}
            </h2>
            <span className="rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-xs text-zinc-600">{doc.info.version}</span>
            <span className="text-xs text-zinc-500">OpenAPI {doc.openapi}</span>
          </div>
          {baseUrl && (
            <div className="mt-3 flex flex-wrap items-center gap-2 text-sm">
              <span className="text-zinc-500">Base URL</span>
              <code className="rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-xs">{baseUrl}</code>
              <CopyButton value={baseUrl} label="base URL" />
            </div>
          )}
          {doc.info.description && <Markdown source={doc.info.description} className="mt-4" />}
          <p className="mt-4 text-sm">
            <a href={url} className="font-medium text-brand-700 hover:underline">
              Download openapi.json
            </a>
          </p>
        </section>

        {groups.map((group) => (
          <section key={group.name} id={tagAnchor(group.name)} aria-labelledby={`${tagAnchor(group.name)}-title`} className="scroll-mt-6 space-y-4">
            <h2 id={`${tagAnchor(group.name)}-title`} className="text-xl font-semibold text-zinc-900">
              {group.name}
            </h2>
            {group.description && <Markdown source={group.description} />}
            {group.operations.map((entry) => (
              <OperationView key={`${entry.method} ${entry.path}`} doc={doc} {...entry} />
            ))}
          </section>
        ))}

        {schemas.length > 0 && (
          <section id="schemas" aria-labelledby="schemas-title" className="scroll-mt-6 space-y-4">
            <h2 id="schemas-title" className="text-xl font-semibold text-zinc-900">
              Schemas
            </h2>
            {schemas.map(([name, schema]) => (
              <div key={name} id={schemaAnchor(name)} className="scroll-mt-6 rounded-lg border border-zinc-200 bg-white p-5 shadow-sm">
                <h3 className="mb-3 font-mono text-sm font-semibold text-zinc-900">{name}</h3>
                <SchemaView doc={doc} schema={schema} seen={[name]} />
              </div>
            ))}
          </section>
        )}
      </div>
    </div>
  );
}
