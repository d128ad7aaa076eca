import { z } from "zod";
import { config } from "@/server/config";

/*
 * Building blocks of the request and response schemas. One caution shapes them: trpc-to-openapi
 * switches plain z.boolean()/z.number() fields of every input object to coercion (so "false" would
 * become true and "" would become 0). Body fields therefore use jsonBoolean()/jsonNumber(), whose
 * pipe opts out; query parameters use the explicit query* parsers.
 */
export const jsonBoolean = () => z.boolean().pipe(z.boolean());
export const jsonNumber = () => z.number().pipe(z.number());

/** Query string integer: digits only, so "1.5", "" and "abc" are rejected rather than guessed. */
export const queryInt = () =>
  z
    .string()
    .regex(/^-?\d+$/, { error: "must be an integer" })
    .transform(Number)
    .pipe(z.number().int());

export const queryBoolean = () => z.enum(["true", "false"], { error: "must be true or false" }).transform((v) => v === "true");

export const isoDateTime = () => z.iso.datetime({ offset: true });

/** Trimmed text that must not be blank. */
export const requiredText = (max: number) => z.string().trim().min(1, { error: "is required" }).max(max);

/** An absolute http(s) URL; https only in production mode. */
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
      } else if (config.productionMode && url.protocol !== "https:") {
        ctx.addIssue({ code: "invalid_format", format: "url", message: "must use https in production" });
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
