import { z } from "zod";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "@/server/domain/paging";

/*
 * Building blocks of the request and response schemas. Body fields that are numbers or booleans use
 * jsonNumber()/jsonBoolean() from src/lib/json-zod.ts (see there why).
 */

/**
 * A boolean query parameter, written "true" or "false" (dashboard callers send the same strings).
 * z.coerce.boolean would read "false" as true; integers need no such care: the coercion trpc-to-openapi
 * applies turns "2" into 2, and "1.5", "" or "abc" still fail `int()`/`min()`.
 */
export const queryBoolean = () =>
  caseInsensitive(["true", "false"]).transform((v) => v === "true");

/** One of `values`, matched in any case ("sandbox", "Sandbox") and returned as spelled in `values`. */
export const caseInsensitive = <T extends readonly [string, ...string[]]>(values: T) =>
  z
    .string()
    .transform((v) => values.find((x) => x.toLowerCase() === v.toLowerCase()) ?? v)
    .pipe(z.enum(values));

/** Text compared exactly (ids, event names): kept as sent, but never empty or only spaces. */
export const exactText = (max: number) =>
  z
    .string()
    .max(max)
    .superRefine((v, ctx) => {
      if (!v.trim()) ctx.addIssue({ code: "too_small", origin: "string", minimum: 1, inclusive: true, message: "must not be blank" });
    });

/** Page from 1, PageSize 1 to 100 (default 20): out-of-range values are a 400, never clamped. */
export const pagingInput = {
  page: z.number().int().min(1).optional().describe("Page number, from 1. Default 1."),
  pageSize: z.number().int().min(1).max(MAX_PAGE_SIZE).optional().describe(`Items per page, 1 to ${MAX_PAGE_SIZE}. Default ${DEFAULT_PAGE_SIZE}.`),
};

/** The one paged-list envelope (the spec's `ActivityPageResponse` shape). */
export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    page: z.number().int(),
    pageSize: z.number().int(),
    totalCount: z.number().int(),
    hasNextPage: z.boolean(),
  });

/** Trimmed text that must not be blank. */
export const requiredText = (max: number) => z.string().trim().min(1, { error: "is required" }).max(max);

/** An absolute http(s) URL. (https in production mode depends on the deployment: the domain checks it.) */
export const httpUrl = () =>
  z
    .string()
    .trim()
    .max(2048)
    .superRefine((value, ctx) => {
      let url: URL;
      try {
        url = new URL(value);
      } catch {
        ctx.addIssue({ code: "invalid_format", format: "url", message: "must be an absolute http(s) URL" });
        return;
      }
      if (url.protocol !== "https:" && url.protocol !== "http:") {
        ctx.addIssue({ code: "invalid_format", format: "url", message: "must use http or https" });
      }
    });

/** The referral redirect link: the service appends `?referralCode=...`, so it has no query or fragment of its own. */
export const redirectLink = () =>
  httpUrl().superRefine((value, ctx) => {
    const url = URL.canParse(value) ? new URL(value) : null;
    if (url && (url.search || value.includes("?"))) {
      ctx.addIssue({ code: "custom", message: "must not contain query parameters; the service appends its own" });
    }
    if (url && url.hash) ctx.addIssue({ code: "custom", message: "must not contain a #fragment" });
  });

export const projectIdInput = { projectId: z.string().min(1).max(100).describe("The project `uniqueId`.") };

/** Responses that carry nothing: REST answers 200 with an empty body. */
export const emptyOutput = z.void();
