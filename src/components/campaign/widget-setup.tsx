"use client";

import { useSyncExternalStore, type ReactNode } from "react";
import { Card } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { QUEUE_STUB } from "@/sdk/web/queue-stub";

/** Shown where the project's publishable key goes until the page is handed one. */
export const KEY_PLACEHOLDER = "pk_...";


const IDENTIFY = 'Referloop.identify({ userId: "USER_ID" });';

const noSubscribe = () => () => {};

function Step({ label, code, copyLabel, children }: { label: string; code: string; copyLabel: string; children?: ReactNode }) {
  return (
    <div className="space-y-1.5">
      <p className="font-medium text-zinc-800">{label}</p>
      <div className="flex items-start gap-2">
        <pre aria-label={label} className="min-w-0 flex-1 rounded-md bg-zinc-900 p-3 font-mono text-xs leading-relaxed break-all whitespace-pre-wrap text-zinc-100">
          {code}
        </pre>
        <CopyButton value={code} label={copyLabel} />
      </div>
      {children}
    </div>
  );
}

/** The two-line integration with this app's address and the project's publishable key. */
export function WidgetSetup({ publishableKey }: { publishableKey?: string }) {
  // This dashboard's own origin serves the widget; read after hydration (the server does not know it).
  const origin = useSyncExternalStore(noSubscribe, () => window.location.origin, () => "https://<your Referloop app>");
  const scriptTag = `<script src="${origin}/sdk/v1/referloop.js" data-key="${publishableKey ?? KEY_PLACEHOLDER}" async></script>`;
  return (
    <Card title="Install the widget" description="Two lines on your site. Referral links, cookies and the new-user banner work from line 1 on.">
      <div className="space-y-4 text-sm text-zinc-600">
        <Step label="1. On every page, in the HTML" code={scriptTag} copyLabel="script tag">
          {!publishableKey && <p>Replace {KEY_PLACEHOLDER} with the project&apos;s publishable key.</p>}
        </Step>
        <Step label="2. In your code, once the user has signed in" code={IDENTIFY} copyLabel="identify call">
          <p>
            USER_ID is your own id of the user. With identity verification on, also pass <code>userHash</code>: the hex HMAC-SHA256 of that
            id keyed with the project secret, computed by your backend.
          </p>
        </Step>
        <Step label="If identify can run before the script has loaded, put this line before the script tag" code={QUEUE_STUB} copyLabel="queue stub">
          <p>It queues the calls (for example an inline identify in a server-rendered page) until the script runs them.</p>
        </Step>
      </div>
    </Card>
  );
}
