import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { getConfig } from "@/server/config";
import { listMailbox, mailboxVisible } from "@/server/mail/mailbox";

export const metadata: Metadata = { title: "Development mailbox" };

/** A plain-text body with its links clickable. */
function Body({ text }: { text: string }) {
  const parts: ReactNode[] = [];
  let rest = text;
  for (let match = /https?:\/\/[^\s<>"]+/.exec(rest); match; match = /https?:\/\/[^\s<>"]+/.exec(rest)) {
    parts.push(rest.slice(0, match.index));
    parts.push(
      <a key={parts.length} href={match[0]} className="break-all text-brand-700 underline">
        {match[0]}
      </a>,
    );
    rest = rest.slice(match.index + match[0].length);
  }
  parts.push(rest);
  return <pre className="whitespace-pre-wrap font-sans text-sm text-zinc-800">{parts}</pre>;
}

/**
 * The e-mails the embedded default wrote to `<data folder>/mail/` instead of sending them, newest
 * first, so a newcomer can follow a verification or invitation link. A 404 like any unknown page
 * unless mailboxVisible: opted into, and asked from this machine.
 */
export default async function DevMailPage() {
  const config = getConfig();
  if (!mailboxVisible(config, await headers())) notFound();
  const messages = listMailbox();
  return (
    <main className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-xl font-semibold text-zinc-900">Development mailbox</h1>
      <p className="mt-1 text-sm text-zinc-500">
        {config.smtpUrl
          ? "SMTP_URL is set: e-mail goes to that server and is not kept here. Earlier messages:"
          : "E-mail is not sent on the embedded default: each message is written to the data folder and listed here, newest first."}
      </p>
      {messages.length === 0 && <p className="mt-8 text-sm text-zinc-600">No messages yet.</p>}
      <ol className="mt-6 space-y-4">
        {messages.map((m) => (
          <li key={m.id}>
            <article aria-label={m.subject} className="rounded-lg border border-zinc-200 bg-white p-4 shadow-sm">
              <h2 className="font-medium text-zinc-900">{m.subject}</h2>
              <p className="mt-1 text-xs text-zinc-500">
                To {m.to} · <time dateTime={m.date}>{new Date(m.date).toUTCString()}</time>
              </p>
              <div className="mt-3">
                <Body text={m.text} />
              </div>
            </article>
          </li>
        ))}
      </ol>
    </main>
  );
}
