import { FAILING_DISABLE_DAYS } from "@/lib/schemas/webhooks";

/*
 * The e-mails the service sends, each as plain text and simple HTML. Every value put into the HTML
 * is escaped; links must be absolute http(s) URLs.
 */

export type MailContent = { subject: string; text: string; html: string };

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => ENTITIES[c]!);

function checkedLink(link: string): string {
  const url = new URL(link);
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new Error("E-mail links must be http(s) URLs.");
  return url.href;
}

/** "22 November 2026 at 18:30 UTC": the recipient's time zone is unknown, so UTC, said so. */
export function formatExpiry(date: Date): string {
  const day = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" }).format(date);
  const time = new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", hour12: false, timeZone: "UTC" }).format(date);
  return `${day} at ${time} UTC`;
}

/** `action` null: no link can be made (a notice sent outside any request, with no public URL configured). */
type Body = { subject: string; paragraphs: string[]; action: { label: string; link: string } | null; footer: string };

/** Paragraphs are plain text; the one action is a button in HTML and a bare link in text. */
function compose({ subject, paragraphs, action, footer }: Body): MailContent {
  const link = action && checkedLink(action.link);
  const text = [...paragraphs, ...(action ? [`${action.label}: ${link}`] : []), footer, "Referloop"].join("\n\n") + "\n";
  const p = (content: string) => `<p style="margin:0 0 16px">${escapeHtml(content)}</p>`;
  const html = [
    `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#18181b;max-width:560px;margin:0 auto;padding:24px">`,
    ...paragraphs.map(p),
    ...(action && link
      ? [
          `<p style="margin:24px 0"><a href="${escapeHtml(link)}" style="background:#4f46e5;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">${escapeHtml(action.label)}</a></p>`,
          `<p style="margin:0 0 16px;font-size:13px;color:#52525b">Or open this link: <a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`,
        ]
      : []),
    `<p style="margin:0 0 16px;font-size:13px;color:#52525b">${escapeHtml(footer)}</p>`,
    `<p style="margin:0;font-size:13px;color:#52525b">Referloop</p>`,
    `</body></html>`,
  ].join("\n");
  return { subject, text, html };
}

export function verificationEmail(input: { link: string }): MailContent {
  return compose({
    subject: "Verify your e-mail address",
    paragraphs: ["Welcome to Referloop. Confirm that this address is yours to finish setting up your account."],
    action: { label: "Verify e-mail address", link: input.link },
    footer: "If you did not sign up for Referloop, ignore this message: no account is activated without this link.",
  });
}

export function invitationEmail(input: { inviter: string; organization: string; role: string; link: string; expiresAt: Date }): MailContent {
  return compose({
    subject: `${input.inviter} invited you to ${input.organization} on Referloop`,
    paragraphs: [
      `${input.inviter} invited you to join the organisation ${input.organization} on Referloop as ${input.role}.`,
      `The invitation can be accepted once, until ${formatExpiry(input.expiresAt)}, by an account with this verified e-mail address.`,
    ],
    action: { label: "Accept the invitation", link: input.link },
    footer: "If you did not expect this invitation, ignore this message.",
  });
}

export function passwordResetEmail(input: { link: string; expiresAt: Date }): MailContent {
  return compose({
    subject: "Reset your Referloop password",
    paragraphs: [
      "Someone asked to reset the password of the Referloop account with this e-mail address.",
      `The link works once, until ${formatExpiry(input.expiresAt)}.`,
    ],
    action: { label: "Choose a new password", link: input.link },
    footer: "If you did not ask for this, ignore this message: your password stays as it is.",
  });
}

/** What the webhook notices name: the webhook, its project, and a link to its page (null: none can be made). */
type WebhookNotice = { webhook: string; url: string; project: string; link: string | null };

const webhookAction = (link: string | null) => (link ? { label: "Open the webhook", link } : null);

export function webhookFailingEmail(input: WebhookNotice & { lastError: string | null }): MailContent {
  return compose({
    subject: `Webhook "${input.webhook}" of ${input.project} is failing`,
    paragraphs: [
      `Deliveries to the webhook "${input.webhook}" (${input.url}) of the project ${input.project} have started failing${input.lastError ? `: ${input.lastError}` : "."}`,
      "Failed deliveries are retried on their own. The webhook page shows each attempt with the request sent and the answer received, and retries any delivery in one click.",
      `If every delivery keeps failing for ${FAILING_DISABLE_DAYS} days, the webhook is disabled.`,
    ],
    action: webhookAction(input.link),
    footer: "You get this as an owner of the organisation, at most once a day per webhook.",
  });
}

export function webhookDisabledEmail(input: WebhookNotice & { reason: string }): MailContent {
  return compose({
    subject: `Webhook "${input.webhook}" of ${input.project} was disabled`,
    paragraphs: [
      `The webhook "${input.webhook}" (${input.url}) of the project ${input.project} was disabled: ${input.reason}`,
      "It receives nothing until it is enabled again, in one click on its page; failed deliveries can then be retried.",
    ],
    action: webhookAction(input.link),
    footer: "You get this as an owner of the organisation.",
  });
}
