import { Badge, type BadgeTone } from "./badge";

const TONES: Record<string, BadgeTone> = {
  Pending: "amber",
  Completed: "green",
  Succeeded: "green",
  Failed: "red",
  Revoked: "violet",
};

/** The state of a referral (Pending, Completed, Failed) or a delivery (Pending, Succeeded, Failed). */
export function StatusBadge({ status }: { status: string }) {
  return <Badge tone={TONES[status] ?? "neutral"}>{status}</Badge>;
}
