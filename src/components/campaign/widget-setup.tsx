"use client";

import { useSyncExternalStore, type ReactNode } from "react";
import { Card } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { QUEUE_STUB } from "../../../packages/js/src/hosted/queue-stub";

/** Shown where the project's publishable key goes until the page is handed one. */
export const KEY_PLACEHOLDER = "pk_...";


const IDENTIFY = 'Referloop.identify({ userId: "USER_ID", userHash: "USER_HASH" });';
export const PACKAGE_INSTALL = "npm install @referloop/js";

/** What the client's backend runs to sign the user's id (the same one-liner as the API reference's). */
export const USER_HASH_SNIPPET = `import { createHmac } from "node:crypto";
// USER_HASH: the hex HMAC-SHA256 of USER_ID, keyed with the project secret (sk_...)
const userHash = createHmac("sha256", process.env.REFERLOOP_PROJECT_SECRET).update(userId).digest("hex");`;

const noSubscribe = () => () => {};

/** This dashboard's own origin, which serves the widget and the API; read after hydration (the server does not know it). */
export function useAppOrigin(): string {
  return useSyncExternalStore(noSubscribe, () => window.location.origin, () => "https://<your Referloop app>");
}

/** One numbered step of a set-up: a label, the code to copy, and a note below. */
export function SetupStep({ label, code, copyLabel, children }: { label: string; code: string; copyLabel: string; children?: ReactNode }) {
  return (
    <div className="space-y-1.5">
      <p className="font-medium text-zinc-800">{label}</p>
      <div className="flex items-start gap-2">
        {/* A figure: the role ARIA gives code listings, and one that a label names (a bare pre's is ignored). */}
        <pre role="figure" aria-label={label} className="min-w-0 flex-1 rounded-md bg-zinc-900 p-3 font-mono text-xs leading-relaxed break-all whitespace-pre-wrap text-zinc-100 dark:bg-zinc-50 dark:text-zinc-900">
          {code}
        </pre>
        <CopyButton value={code} label={copyLabel} />
      </div>
      {children}
    </div>
  );
}

/**
 * The integration with this app's address and the project's publishable key: the npm package first
 * (for sites built with a bundler), the hosted script second (two lines of HTML), and the
 * server-side line that signs the user's id (userHash): the publishable key is public, so without the
 * hash a call cannot change or bind a user who already exists.
 */
export function WidgetSetup({ publishableKey, identityVerification }: { publishableKey?: string; identityVerification?: boolean }) {
  const origin = useAppOrigin();
  const key = publishableKey ?? KEY_PLACEHOLDER;
  const start = `import { init, identify } from "@referloop/js";

init({ key: "${key}", apiBaseUrl: "${origin}" }); // on every page
identify({ userId: "USER_ID", userHash: "USER_HASH" }); // once the user has signed in`;
  const scriptTag = `<script src="${origin}/sdk/v1/referloop.js" data-key="${key}" async></script>`;
  return (
    <Card title="Install the widget" description="Referral links, cookies and the new-user banner work from init (or the script tag) on.">
      <div className="space-y-4 text-sm text-zinc-600">
        <SetupStep label="1. Add the package to your site" code={PACKAGE_INSTALL} copyLabel="install command">
          <p>@referloop/js, for sites built with a bundler (Vite, webpack, Next.js, esbuild). Without one, use the hosted script below instead.</p>
        </SetupStep>
        <SetupStep label="2. In your code" code={start} copyLabel="package set-up">
          {!publishableKey && <p>Replace {KEY_PLACEHOLDER} with the project&apos;s publishable key.</p>}
          <p>USER_ID is your own id of the user; USER_HASH proves it is them (step 3).</p>
        </SetupStep>
        <SetupStep label="3. On your server, sign the user's id (USER_HASH)" code={USER_HASH_SNIPPET} copyLabel="userHash code">
          <p>
            The project secret stays on your server: hand only the hash to the page.{" "}
            {identityVerification
              ? "Identity verification is on: a call without a valid userHash is refused."
              : "Anyone can copy the publishable key from your page, so a call without a valid userHash may create a new user and read its code and link, but cannot change a user who already exists or bind them to a referral. Turn identity verification on in the project's settings to require it."}
          </p>
        </SetupStep>
        <h3 className="pt-2 font-semibold text-zinc-900">Or the hosted script, without a bundler</h3>
        <SetupStep label="On every page, in the HTML" code={scriptTag} copyLabel="script tag" />
        <SetupStep label="Once the user has signed in" code={IDENTIFY} copyLabel="identify call">
          <p>USER_HASH as in step 3.</p>
        </SetupStep>
        <SetupStep label="If identify can run before the script has loaded, put this line before the script tag" code={QUEUE_STUB} copyLabel="queue stub">
          <p>It queues the calls (for example an inline identify in a server-rendered page) until the script runs them.</p>
        </SetupStep>
      </div>
    </Card>
  );
}
