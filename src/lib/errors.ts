import { TRPCClientError } from "@trpc/client";
import type { AppRouter } from "@/server/api/root";

/** What a form shows for a failed mutation: one message on top, and one per field it knows. */
export type FormErrors = { message: string | null; fields: Record<string, string> };

export const noErrors: FormErrors = { message: null, fields: {} };

/**
 * Maps a tRPC error to form errors. Validation problems carry `{ field, rule, message }` per failing
 * field (dotted paths such as `app.iconUrl` or `allowedOrigins.2`); each goes to the longest
 * `fieldNames` entry it falls under, and whatever no field shows goes into the top message so no
 * reason is ever swallowed.
 */
export function toFormErrors(error: unknown, fieldNames: readonly string[] = []): FormErrors {
  if (!(error instanceof TRPCClientError)) {
    return { message: error instanceof Error ? error.message : "Something went wrong.", fields: {} };
  }
  const problem = (error as TRPCClientError<AppRouter>).data?.problem;
  if (!problem) {
    // No problem body: the request never reached the API (network, server down).
    return { message: "Could not reach the server. Check your connection and try again.", fields: {} };
  }
  const fields: Record<string, string> = {};
  const unplaced: string[] = [];
  for (const issue of problem.errors ?? []) {
    const owner = [...fieldNames]
      .sort((a, b) => b.length - a.length)
      .find((name) => issue.field === name || issue.field.startsWith(`${name}.`));
    if (!owner) {
      unplaced.push(`${issue.field}: ${issue.message}`);
      continue;
    }
    const rest = issue.field.slice(owner.length + 1);
    const text = /^\d+$/.test(rest) ? `entry ${Number(rest) + 1} ${issue.message}` : issue.message;
    fields[owner] ??= text;
  }
  if (problem.errors?.length) {
    const message = unplaced.length ? unplaced.join("; ") : Object.keys(fields).length ? null : problem.detail;
    return { message, fields };
  }
  return { message: problem.detail || error.message, fields };
}

/** "must be an e-mail address" reads best after the field's label; full sentences stand alone. */
export function fieldMessage(label: string, message: string): string {
  const sentence = /^[a-z]/.test(message) ? `${label} ${message}` : message;
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}

/** What a page that loads one thing says when loading it failed: "does not exist" for a 404, else the error's own message. */
export function loadErrorMessage(error: unknown, thing: string): string | null {
  return error instanceof TRPCClientError && error.data?.code === "NOT_FOUND" ? `This ${thing} does not exist in this project.` : toFormErrors(error).message;
}
