/* A shop's page script bundling @referloop/js: the widget, from the package, on the shop's own origin. */
import { getReferralLink, identify, init, on, open } from "@referloop/js";

declare const __REFERLOOP_APP__: string;
declare const __REFERLOOP_KEY__: string;

const seen: [string, unknown][] = [];
(window as unknown as { __events: typeof seen }).__events = seen;
on("referral_tracked", (detail) => seen.push(["referral_tracked", detail]));
on("ready", (detail) => seen.push(["ready", { ...detail, link: getReferralLink() }]));
on("open", () => seen.push(["open", null]));
init({ key: __REFERLOOP_KEY__, apiBaseUrl: __REFERLOOP_APP__ });
identify({ userId: "pkg-widget-user" });
(window as unknown as { openReferloop: () => void }).openReferloop = open;
