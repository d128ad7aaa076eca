import { Disclosure } from "./disclosure";
import { InlineMarkdown, Markdown } from "./markdown";
import type { HttpMethod, JsonSchema, OpenApiDocument, Operation, Parameter, PathItem, RequestBody, ResponseObject } from "./openapi-types";
import { deref, resolveSchema, typeLabel, unwrapNullable } from "./resolve";
import { Rules, SchemaView, TypeLabel } from "./schema-view";

const methodTone: Record<HttpMethod, string> = {
  get: "bg-emerald-100 text-emerald-800",
  post: "bg-sky-100 text-sky-800",
  put: "bg-amber-100 text-amber-800",
  patch: "bg-violet-100 text-violet-800",
  delete: "bg-red-100 text-red-800",
  head: "bg-zinc-100 text-zinc-700",
  options: "bg-zinc-100 text-zinc-700",
  trace: "bg-zinc-100 text-zinc-700",
};

export function MethodBadge({ method }: { method: HttpMethod }) {
  return (
    <span className={`inline-block w-16 shrink-0 rounded px-1.5 py-0.5 text-center font-mono text-xs font-bold ${methodTone[method]}`}>
      {method.toUpperCase()}
    </span>
  );
}

export const operationAnchor = (method: string, path: string, op: Operation) =>
  `op-${op.operationId ?? `${method}-${path}`}`.replace(/[^A-Za-z0-9_-]/g, "-");

function statusTone(status: string) {
  if (status.startsWith("2")) return "bg-emerald-100 text-emerald-800";
  if (status.startsWith("3")) return "bg-sky-100 text-sky-800";
  if (status.startsWith("4")) return "bg-amber-100 text-amber-800";
  if (status.startsWith("5")) return "bg-red-100 text-red-800";
  return "bg-zinc-100 text-zinc-700";
}

/** The response type in a collapsed summary; links would toggle the disclosure, so plain text. */
function TypeName({ schema }: { schema: JsonSchema }) {
  return <span className="font-mono text-violet-700">{typeLabel(schema)}</span>;
}

function Subheading({ children }: { children: string }) {
  return <h4 className="mb-2 text-xs font-semibold uppercase tracking-wide text-zinc-500">{children}</h4>;
}

function Security({ doc, op }: { doc: OpenApiDocument; op: Operation }) {
  const requirements = op.security ?? doc.security;
  if (!requirements) return null;
  const schemes = doc.components?.securitySchemes ?? {};
  return (
    <div>
      <Subheading>Authorization</Subheading>
      {requirements.length === 0 ? (
        <p className="text-sm text-zinc-600">None: this operation is public.</p>
      ) : (
        <ul className="space-y-1 text-sm text-zinc-700">
          {requirements.map((req, i) => (
            <li key={i}>
              {Object.keys(req).map((name) => {
                const scheme = schemes[name];
                const kind =
                  scheme?.type === "http" && scheme.scheme?.toLowerCase() === "bearer"
                    ? "Authorization: Bearer <token>"
                    : scheme?.type === "apiKey"
                      ? `${scheme.name ?? name} (${scheme.in ?? "header"})`
                      : (scheme?.type ?? name);
                return (
                  <span key={name}>
                    <span className="font-medium">{name}</span> — <code className="font-mono text-xs">{kind}</code>
                    {scheme?.description && (
                      <span className="text-zinc-500">
                        . <InlineMarkdown text={scheme.description} />
                      </span>
                    )}
                  </span>
                );
              })}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function Parameters({ doc, params }: { doc: OpenApiDocument; params: Parameter[] }) {
  if (!params.length) return null;
  return (
    <div>
      <Subheading>Parameters</Subheading>
      <ul className="divide-y divide-zinc-100 rounded-md border border-zinc-200 bg-white">
        {params.map((p) => (
          <li key={`${p.in}:${p.name}`} className="px-3 py-2">
            <div className="flex flex-wrap items-baseline gap-2">
              <code className="font-mono text-sm font-semibold text-zinc-900">{p.name}</code>
              {p.schema && <TypeLabel schema={p.schema} />}
              <span className="rounded bg-zinc-100 px-1.5 py-0.5 text-xs text-zinc-600">{p.in}</span>
              {p.required ? <span className="text-xs font-medium text-red-700">required</span> : <span className="text-xs text-zinc-500">optional</span>}
              {p.deprecated && <span className="text-xs text-amber-700">deprecated</span>}
            </div>
            {(p.description ?? p.schema?.description) && <Markdown source={p.description ?? p.schema?.description ?? ""} className="mt-0.5" />}
            {p.schema && <Rules schema={unwrapNullable(resolveSchema(doc, p.schema).schema).schema} />}
          </li>
        ))}
      </ul>
    </div>
  );
}

function Body({ doc, body }: { doc: OpenApiDocument; body: RequestBody }) {
  return (
    <div>
      <Subheading>{`Request body${body.required ? "" : " (optional)"}`}</Subheading>
      {body.description && <Markdown source={body.description} className="mb-2" />}
      {Object.entries(body.content ?? {}).map(([type, media]) => (
        <div key={type} className="space-y-2">
          <p className="font-mono text-xs text-zinc-500">{type}</p>
          {media.schema && <SchemaView doc={doc} schema={media.schema} />}
        </div>
      ))}
    </div>
  );
}

function Responses({ doc, responses }: { doc: OpenApiDocument; responses: [string, ResponseObject][] }) {
  return (
    <div>
      <Subheading>Responses</Subheading>
      <ul className="space-y-2">
        {responses.map(([status, response]) => {
          const content = Object.entries(response.content ?? {});
          return (
            <li key={status} className="rounded-md border border-zinc-200 bg-white px-3 py-2">
              <div className="flex flex-wrap items-baseline gap-2">
                <span className={`rounded px-1.5 py-0.5 font-mono text-xs font-bold ${statusTone(status)}`}>{status}</span>
                <span className="text-sm text-zinc-700">{response.description}</span>
              </div>
              {content.map(([type, media]) =>
                media.schema ? (
                  <Disclosure
                    key={type}
                    className="mt-2"
                    summaryClassName="cursor-pointer text-xs text-zinc-500 select-none"
                    summary={
                      <>
                        <span className="font-mono">{type}</span> · <TypeName schema={media.schema} />
                      </>
                    }
                  >
                    <div className="mt-2">
                      <SchemaView doc={doc} schema={media.schema} />
                    </div>
                  </Disclosure>
                ) : (
                  <p key={type} className="mt-1 font-mono text-xs text-zinc-500">
                    {type}
                  </p>
                ),
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

type OperationViewProps = { doc: OpenApiDocument; path: string; method: HttpMethod; op: Operation; pathItem: PathItem };

export function OperationView({ doc, path, method, op, pathItem }: OperationViewProps) {
  const anchor = operationAnchor(method, path, op);
  // Path-level parameters apply unless the operation redefines the same name and location.
  const opParams = (op.parameters ?? []).map((p) => deref(doc, p)).filter((p): p is Parameter => Boolean(p));
  const inherited = (pathItem.parameters ?? [])
    .map((p) => deref(doc, p))
    .filter((p): p is Parameter => Boolean(p) && !opParams.some((o) => o.name === p?.name && o.in === p?.in));
  const body = op.requestBody ? deref(doc, op.requestBody) : undefined;
  const responses = Object.entries(op.responses ?? {})
    .map(([status, r]) => [status, deref(doc, r)] as const)
    .filter((entry): entry is [string, ResponseObject] => Boolean(entry[1]));
  return (
    <section id={anchor} aria-labelledby={`${anchor}-title`} className="scroll-mt-6 rounded-lg border border-zinc-200 bg-white shadow-sm">
      <header className="border-b border-zinc-100 px-5 py-4">
        <h3 id={`${anchor}-title`} className="flex flex-wrap items-center gap-3">
          <MethodBadge method={method} /> <span className="font-mono text-sm font-semibold break-all text-zinc-900">{path}</span>
        </h3>
        {op.summary && <p className="mt-2 text-sm font-medium text-zinc-800">{op.summary}</p>}
        {op.deprecated && <p className="mt-1 text-xs font-medium text-amber-700">Deprecated</p>}
      </header>
      <div className="space-y-5 px-5 py-4">
        {op.description && <Markdown source={op.description} />}
        <Security doc={doc} op={op} />
        <Parameters doc={doc} params={[...inherited, ...opParams]} />
        {body && <Body doc={doc} body={body} />}
        {responses.length > 0 && <Responses doc={doc} responses={responses} />}
      </div>
    </section>
  );
}
