import { z } from "zod";
import { EXAMPLE } from "./examples";
// Installs the plain-words messages for every schema (all of them import this file).
import "./plain-messages";

/*
 * The building blocks of every request and response schema: the one parser of shapes and limits,
 * imported by the procedures (and so the OpenAPI document), the dashboard forms and the scripts.
 * Nothing here may import server code: the dashboard bundles it.
 */

/**
 * The REST surface (trpc-to-openapi's convention, applied in src/server/api/rest/rest-operations.ts)
 * switches the plain z.number()/z.boolean() fields of every input object (nested objects included)
 * to coercion, so in a JSON body "0.5" would pass as 0.5, true as 1 and "false" as true. Body fields
 * use these instead: the pipe keeps the type strict and is left alone by it. (Query parameters want
 * the coercion: "2" is 2 there.)
 */
export const jsonNumber = (schema: z.ZodNumber) => schema.pipe(z.number());
export const jsonBoolean = () => z.boolean().pipe(z.boolean());

/**
 * A boolean query parameter, written "true" or "false" (dashboard callers send the same strings).
 * z.coerce.boolean would read "false" as true; integers need no such care: the coercion the REST
 * surface applies turns "2" into 2, and "1.5", "" or "abc" still fail `int()`/`min()`.
 */
export const queryBoolean = () =>
  caseInsensitive(["true", "false"])
    .transform((v) => v === "true")
    .meta({
      override: ({ jsonSchema }) => {
        jsonSchema.type = "boolean";
        delete jsonSchema.enum;
      },
    });

/**
 * One of `values`, matched in any case ("sandbox", "Sandbox") and returned as spelled in `values`.
 * The document declares the values as spelled: a generated client sends those, which always pass.
 */
export const caseInsensitive = <T extends readonly [string, ...string[]]>(values: T) =>
  z
    .string()
    .transform((v) => values.find((x) => x.toLowerCase() === v.toLowerCase()) ?? v)
    .pipe(z.enum(values))
    .meta({ override: { type: "string", enum: [...values] } });

/** Text compared exactly (ids, event names): kept as sent, but never empty or only spaces (the pattern: some non-space). */
export const exactText = (max: number) =>
  z
    .string()
    .max(max)
    .superRefine((v, ctx) => {
      if (!v.trim()) ctx.addIssue({ code: "too_small", origin: "string", minimum: 1, inclusive: true, message: "must not be blank" });
    })
    .meta({ minLength: 1, pattern: "\\S" });

/** Trimmed text that must not be blank. */
export const requiredText = (max: number) => z.string().trim().min(1, { error: "is required" }).max(max);

export const URL_MAX_LENGTH = 2048;

/**
 * An absolute http(s) URL without credentials (fetchers refuse them, and they would leak into logs).
 * Whether https is required depends on the deployment (production mode), so the server checks that.
 */
export const httpUrl = () =>
  z
    .string()
    .trim()
    .max(URL_MAX_LENGTH)
    .superRefine((value, ctx) => {
      const url = URL.canParse(value) ? new URL(value) : null;
      if (!url || (url.protocol !== "https:" && url.protocol !== "http:")) {
        ctx.addIssue({ code: "invalid_format", format: "url", message: "must be an absolute http(s) URL" });
      } else if (url.username || url.password) {
        ctx.addIssue({ code: "invalid_format", format: "url", message: "must not contain a user name or password" });
      }
    })
    .meta({ format: "uri", pattern: "^\\s*[Hh][Tt][Tt][Pp][Ss]?://" });

/** The referral redirect link: the service appends `?referralCode=...`, so it has no query or fragment of its own. */
export const redirectLink = () =>
  httpUrl().superRefine((value, ctx) => {
    const url = URL.canParse(value) ? new URL(value) : null;
    if (url && (url.search || value.includes("?"))) {
      ctx.addIssue({ code: "custom", message: "must not contain query parameters; the service appends its own" });
    }
    if (url && url.hash) ctx.addIssue({ code: "custom", message: "must not contain a #fragment" });
  });

export const ID_MAX_LENGTH = 100;
/** A service-generated id in a path: anything else simply finds nothing (404). */
export const idInput = () => z.string().min(1).max(ID_MAX_LENGTH);
export const projectIdInput = { projectId: idInput().describe("The project `uniqueId`.").meta({ examples: [EXAMPLE.projectId] }) };

/**
 * A procedure's input: its request body (a schema of this folder) plus the path's ids. The body's
 * title and examples come along, so the OpenAPI document names the body (`CreateProjectRequest`, not
 * an inline type) and shows its example.
 */
export const withPath = <Shape extends z.ZodRawShape, P extends z.ZodRawShape>(body: z.ZodObject<Shape>, path: P) => {
  const { title, examples, description } = body.meta() ?? {};
  return body.extend(path).meta({ title, examples, description });
};

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/** Page from 1, PageSize 1 to 100 (default 20): out-of-range values are a 400, never clamped. */
export const pagingInput = {
  page: z.number().int().min(1).default(1).describe("Page number, from 1.").meta({ examples: [1] }),
  pageSize: z.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE).describe(`Items per page, 1 to ${MAX_PAGE_SIZE}.`).meta({ examples: [DEFAULT_PAGE_SIZE] }),
};

/** The one paged-list envelope (the spec's `ActivityPageResponse` shape); its example pages the item's. */
export const pageOf = <T extends z.ZodType>(item: T) => {
  const example = item.meta()?.examples?.[0];
  return z
    .object({
      items: z.array(item),
      page: z.number().int().min(1),
      pageSize: z.number().int().min(1).max(MAX_PAGE_SIZE),
      totalCount: z.number().int().min(0),
      hasNextPage: z.boolean(),
    })
    .meta(example === undefined ? {} : { examples: [{ items: [example], page: 1, pageSize: DEFAULT_PAGE_SIZE, totalCount: 1, hasNextPage: false }] });
};

/**
 * The app-user and referral lists count their matches up to this many: beyond, `totalCount` says this
 * and `totalCountExact` false (the delivery search has its own, DELIVERY_COUNT_MAX). An exact count
 * reads an index entry per match, every call: a search matching 1 in 40 of 1,000,000 users took 0.3 to
 * 1.1 s, the referrals of a project of 250,000 about 80 ms.
 */
export const LIST_COUNT_MAX = 10_000;

/**
 * pageOf with the count capped at `max`: `totalCountExact` says when it stopped, `hasNextPage` stays
 * exact. `things` names the items ("deliveries"), `narrow` says what to do for an exact count.
 */
export const cappedPageOf = <T extends z.ZodType>(item: T, { id, max, things, narrow }: { id: string; max: number; things: string; narrow: string }) => {
  const cap = max.toLocaleString("en-GB");
  const example = item.meta()?.examples?.[0];
  return pageOf(item)
    .extend({
      totalCount: z
        .number()
        .int()
        .min(0)
        .max(max)
        .describe(`The number of ${things} the filter selects, counted up to ${cap}: when more match, ${cap} (a lower bound) and \`totalCountExact\` is false. \`hasNextPage\` is exact either way.`),
      totalCountExact: z.boolean().describe(`False when more than ${cap} ${things} match: ${narrow}.`),
    })
    .meta({ id, examples: [{ items: example === undefined ? [] : [example], page: 1, pageSize: DEFAULT_PAGE_SIZE, totalCount: 1, hasNextPage: false, totalCountExact: true }] });
};

/** Responses that carry nothing: REST answers 200 with an empty body. */
export const emptyOutput = z.void();

export const pagingQuery = z.object(pagingInput);
