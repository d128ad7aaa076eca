"use client";

import { useQuery } from "@tanstack/react-query";
import { useMemo, useState, useSyncExternalStore } from "react";
import { ErrorMessage } from "@/components/ui/alert";
import { CopyButton } from "@/components/ui/copy-button";
import { groupByTag, type OperationEntry, type TagGroup } from "./group-operations";
import { Markdown } from "./markdown";
import { isOpenApiDocument, type OpenApiDocument } from "./openapi-types";
import { MethodBadge, OperationView, operationAnchor } from "./operation-view";
import { answerSample, curlSample } from "./samples";
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

/** The page's `#fragment` (without `#`), following the browser's history. */
function useHash(): string {
  return useSyncExternalStore(
    (changed) => {
      window.addEventListener("hashchange", changed);
      return () => window.removeEventListener("hashchange", changed);
    },
    () => decodeURIComponent(window.location.hash.slice(1)),
    () => "",
  );
}

/** Every word of the query in the operation's method, path, summary, tag or id, any case. */
function matches(entry: OperationEntry, tag: string, words: string[]): boolean {
  const text = `${entry.method} ${entry.path} ${entry.op.summary ?? ""} ${entry.op.operationId ?? ""} ${tag}`.toLowerCase();
  return words.every((word) => text.includes(word));
}

/**
 * The OpenAPI document at `url` as a reference to work with: a searchable index of the operations
 * (beside the page on a wide screen, above it on a phone), and one operation, one schema or the
 * overview at a time, chosen by the address's fragment (`#op-...`, `#schema-...`), so every link and
 * the browser's back button work. Each operation shows a curl request and its answer from the
 * document's examples. The whole document in one page was 188,000 px and 18,000 elements.
 */
export function ApiReference({ url }: { url: string }) {
  const query = useQuery({ queryKey: ["openapi-document", url], queryFn: () => fetchDocument(url), staleTime: 60_000 });
  const hash = useHash();
  const [search, setSearch] = useState("");
  const groups = useMemo(() => (query.data ? groupByTag(query.data) : []), [query.data]);
  if (query.isPending) return <p className="text-sm text-zinc-500">Loading the API reference…</p>;
  if (query.isError) return <ErrorMessage>{query.error.message}</ErrorMessage>;
  const doc = query.data;
  const baseUrl = displayedBaseUrl(doc.servers?.[0]?.url, url) ?? "";
  const all = groups.flatMap((group) => group.operations.map((entry) => ({ group, entry, anchor: operationAnchor(entry.method, entry.path, entry.op) })));
  const current = all.findIndex((o) => o.anchor === hash);
  const schemaName = Object.keys(doc.components?.schemas ?? {}).find((name) => schemaAnchor(name) === hash);
  return (
    <div className="grid gap-6 lg:grid-cols-[17rem_minmax(0,1fr)] lg:gap-8">
      <OperationIndex groups={groups} search={search} onSearch={setSearch} selected={hash} schemaNames={Object.keys(doc.components?.schemas ?? {})} />
      <div className="min-w-0">
        {current >= 0 ? (
          <SelectedOperation doc={doc} baseUrl={baseUrl} group={all[current]!.group} entry={all[current]!.entry} previous={all[current - 1]} next={all[current + 1]} />
        ) : schemaName ? (
          <section aria-labelledby="schema-title" className="rounded-lg border border-zinc-200 bg-white p-5 shadow-sm">
            <h2 id="schema-title" className="mb-3 font-mono text-base font-semibold break-all text-zinc-900">
              {schemaName}
            </h2>
            <SchemaView doc={doc} schema={doc.components!.schemas![schemaName]!} seen={[schemaName]} />
          </section>
        ) : (
          <Overview doc={doc} url={url} baseUrl={baseUrl} first={all[0]?.anchor} />
        )}
      </div>
    </div>
  );
}

function Overview({ doc, url, baseUrl, first }: { doc: OpenApiDocument; url: string; baseUrl: string; first?: string }) {
  return (
    <section aria-labelledby="api-overview" className="rounded-lg border border-zinc-200 bg-white p-5 shadow-sm">
      <div className="flex flex-wrap items-baseline gap-3">
        <h2 id="api-overview" className="text-lg font-semibold text-zinc-900">
          {doc.info.title}
        </h2>
        <span className="rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-xs text-zinc-600">{doc.info.version}</span>
        <span className="text-xs text-zinc-600">OpenAPI {doc.openapi}</span>
      </div>
      {baseUrl && (
        <div className="mt-3 flex flex-wrap items-center gap-2 text-sm">
          <span className="text-zinc-600">Base URL</span>
          <code className="rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-xs break-all">{baseUrl}</code>
          <CopyButton value={baseUrl} label="base URL" />
        </div>
      )}
      <p className="mt-4 text-sm text-zinc-700">
        Pick an operation in the index{first ? (
          <>
            {" "}(or start with <a href={`#${first}`} className="font-medium text-brand-700 hover:underline">the first one</a>)
          </>
        ) : null}
        : each shows its parameters, body, answers, and a request and answer to copy.
      </p>
      {doc.info.description && <Markdown source={doc.info.description} className="mt-4" />}
      <p className="mt-4 text-sm">
        <a href={url} className="font-medium text-brand-700 hover:underline">
          Download openapi.json
        </a>
      </p>
    </section>
  );
}

type Neighbour = { entry: OperationEntry; anchor: string } | undefined;

function SelectedOperation(props: { doc: OpenApiDocument; baseUrl: string; group: TagGroup; entry: OperationEntry; previous: Neighbour; next: Neighbour }) {
  const { doc, baseUrl, group, entry, previous, next } = props;
  const curl = curlSample(doc, baseUrl, entry.method, entry.path, entry.op, entry.pathItem);
  const answer = answerSample(doc, entry.op);
  return (
    <div className="space-y-5">
      <div>
        <p className="text-xs font-medium uppercase tracking-wide text-zinc-600">
          <a href="#" className="hover:underline">
            Overview
          </a>{" "}
          / {group.name}
        </p>
        <h2 className="sr-only">{group.name}</h2>
      </div>
      <OperationView doc={doc} {...entry} />
      <section aria-label="Samples" className="grid gap-4 xl:grid-cols-2">
        <Sample title="Request (curl)" text={curl} />
        {answer && (
          <Sample title={`Answer ${answer.status}${answer.type ? ` (${answer.type})` : ""}`} text={answer.body ?? (answer.type ? "(no example)" : "(no body)")} />
        )}
      </section>
      <nav aria-label="Previous and next operation" className="flex flex-wrap justify-between gap-3 text-sm">
        {previous ? (
          <a href={`#${previous.anchor}`} className="text-brand-700 hover:underline">
            ← {previous.entry.op.summary ?? previous.entry.path}
          </a>
        ) : (
          <span />
        )}
        {next && (
          <a href={`#${next.anchor}`} className="text-brand-700 hover:underline">
            {next.entry.op.summary ?? next.entry.path} →
          </a>
        )}
      </nav>
    </div>
  );
}

function Sample({ title, text }: { title: string; text: string }) {
  return (
    <div className="min-w-0 rounded-lg border border-zinc-200 bg-white shadow-sm">
      <div className="flex items-center justify-between gap-2 border-b border-zinc-100 px-4 py-2">
        <h3 className="text-sm font-semibold text-zinc-900">{title}</h3>
        <CopyButton value={text} label={title.toLowerCase()} />
      </div>
      <pre tabIndex={0} aria-label={title} className="max-h-96 overflow-auto px-4 py-3 font-mono text-xs leading-relaxed whitespace-pre text-zinc-800">
        {text}
      </pre>
    </div>
  );
}

function OperationIndex(props: { groups: TagGroup[]; search: string; onSearch: (value: string) => void; selected: string; schemaNames: string[] }) {
  const { groups, search, onSearch, selected, schemaNames } = props;
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  const shown = groups.map((group) => ({ ...group, operations: group.operations.filter((entry) => matches(entry, group.name, words)) })).filter((g) => g.operations.length);
  const schemas = schemaNames.filter((name) => words.every((word) => name.toLowerCase().includes(word)));
  const count = shown.reduce((n, g) => n + g.operations.length, 0);
  return (
    <nav aria-label="API reference contents" className="lg:sticky lg:top-6 lg:self-start">
      <label htmlFor="api-reference-search" className="text-sm font-medium text-zinc-800">
        Search operations
      </label>
      <input
        id="api-reference-search"
        type="search"
        value={search}
        onChange={(event) => onSearch(event.target.value)}
        placeholder="users, POST, rotate…"
        autoComplete="off"
        className="mt-1 w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm text-zinc-900 placeholder:text-zinc-500"
      />
      <p role="status" className="mt-1 text-xs text-zinc-600">
        {words.length ? `${count} operation${count === 1 ? "" : "s"} match` : `${count} operations`}
      </p>
      <div className="mt-3 max-h-72 space-y-4 overflow-y-auto rounded-md border border-zinc-200 p-3 text-sm lg:max-h-[calc(100vh-10rem)] lg:border-0 lg:p-0">
        {shown.map((group) => (
          <div key={group.name}>
            <p className="font-semibold text-zinc-900">{group.name}</p>
            <ul className="mt-1.5 space-y-1">
              {group.operations.map(({ path, method, op }) => {
                const anchor = operationAnchor(method, path, op);
                return (
                  <li key={`${method} ${path}`}>
                    <a
                      href={`#${anchor}`}
                      aria-current={anchor === selected ? "page" : undefined}
                      className="flex items-baseline gap-2 rounded px-1 py-0.5 text-zinc-700 hover:bg-zinc-100 hover:text-zinc-900 aria-[current=page]:bg-brand-50 aria-[current=page]:font-medium aria-[current=page]:text-zinc-900"
                    >
                      <MethodBadge method={method} />
                      <span className="text-xs break-words" title={path}>
                        {op.summary ?? path}
                      </span>
                    </a>
                  </li>
                );
              })}
            </ul>
          </div>
        ))}
        {schemas.length > 0 && (
          <div>
            <p className="font-semibold text-zinc-900">Schemas</p>
            <ul className="mt-1.5 space-y-1">
              {schemas.map((name) => (
                <li key={name}>
                  <a
                    href={`#${schemaAnchor(name)}`}
                    aria-current={schemaAnchor(name) === selected ? "page" : undefined}
                    className="block rounded px-1 py-0.5 font-mono text-xs break-all text-zinc-700 hover:bg-zinc-100 aria-[current=page]:bg-brand-50 aria-[current=page]:text-zinc-900"
                  >
                    {name}
                  </a>
                </li>
              ))}
            </ul>
          </div>
        )}
        {count === 0 && schemas.length === 0 && <p className="text-zinc-600">Nothing matches “{search}”.</p>}
      </div>
    </nav>
  );
}
