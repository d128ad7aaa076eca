import type { InboundProvider, RewardEnvironment } from "@/generated/prisma/enums";
import type { InboundIgnoreReason } from "@/lib/schemas/inbound-hooks";
import type { RevokeKind } from "@/lib/schemas/reward-rules";
import { findTextIssues } from "@/lib/schemas/well-formed-text";
import { DomainError, type FieldIssue } from "@/server/domain/errors";
import type { z } from "zod";

/**
 * A verified provider event as the reward path sees it: what it is, which users it may name (in order
 * of precedence) and whether it is a conversion. `conversion: "after_trial"` is a RevenueCat renewal
 * whose payload does not say whether a trial preceded it: decided from the events recorded before.
 */
export type InboundConversion = {
  provider: InboundProvider;
  providerEventId: string;
  type: string;
  environment: RewardEnvironment;
  refereeCandidates: string[];
  conversion: true | "after_trial" | { ignored: InboundIgnoreReason };
  productId?: string | null;
  periodType?: string | null;
  /**
   * The provider's ids of what the event is about (payment intent, invoice, charge, subscription,
   * customer; RevenueCat's transaction ids): kept with a conversion, looked up by a reversal.
   */
  refs: string[];
  /** A refund, dispute or cancellation: which kind of revocation it is, or why it is none. */
  reversal?: RevokeKind | { ignored: InboundIgnoreReason };
};

export const ignored = (reason: InboundIgnoreReason) => ({ ignored: reason });

/** Client ids are at most this long: a longer candidate names no user. */
const MAX_CANDIDATE_LENGTH = 255;

/** The candidates that can name an app user: text, not blank, unique, in order. */
export function candidates(values: unknown[]): string[] {
  const out: string[] = [];
  for (const v of values) if (typeof v === "string" && v.trim() && v.length <= MAX_CANDIDATE_LENGTH && !out.includes(v)) out.push(v);
  return out;
}

/** A provider body read with `schema`: a 400 naming each field and rule it breaks, as the REST API does. */
export function readProviderBody<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issues: FieldIssue[] = parsed.error.issues.map((i) => ({ field: i.path.map(String).join(".") || "(body)", rule: i.code, message: i.message }));
    throw new DomainError("invalid", issues.map((i) => `${i.field}: ${i.message}`).join("; "), issues);
  }
  return parsed.data;
}

/** What is kept of an event must be storable text (no NUL, no lone surrogate), like every API input. */
export function checkStorable(conversion: InboundConversion): InboundConversion {
  const issues = findTextIssues(conversion);
  if (issues.length) throw new DomainError("invalid", "The event contains text that cannot be stored.", issues);
  return conversion;
}

/** The ids among `values` (strings, or objects with an `id`, as Stripe expands them), unique, in order. */
export function refsOf(values: unknown[]): string[] {
  const ids = values.map((v) => (v && typeof v === "object" ? (v as { id?: unknown }).id : v));
  return candidates(ids);
}
