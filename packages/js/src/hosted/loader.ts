/*
 * The classic script, /sdk/v1/referloop.js. Defines the one global, `Referloop`, initialises itself from
 * its own tag (`data-key`, optional `data-cookie-domain`) and replays the calls the queue stub collected
 * while it was loading (README: "Calls before the script has loaded").
 */
import { createReferloop, type Referloop } from "../sdk.ts";
import { uiBeside } from "./ui-chunk.ts";

type Stub = { q?: [keyof Referloop, ArrayLike<unknown>][] };
const global = window as unknown as { Referloop?: Stub | Referloop };
const stub = global.Referloop as Stub | undefined;

// Loaded twice: the first copy stays in charge.
if (!stub || stub.q) {
  const script = document.currentScript as HTMLScriptElement | null;
  const scriptUrl = script?.src || location.href;
  const referloop = createReferloop(uiBeside(scriptUrl), new URL(scriptUrl).origin);
  global.Referloop = referloop;
  const key = script?.dataset.key;
  if (key) referloop.init({ key, cookieDomain: script.dataset.cookieDomain });
  for (const [method, args] of stub?.q ?? []) (referloop[method] as (...a: unknown[]) => unknown)?.(...Array.from(args));
}
