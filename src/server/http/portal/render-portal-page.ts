import type { FriendStatus, ReferralSummary } from "@/lib/schemas/portal";
import { readableTextOn, usableColor } from "../../../../packages/js/src/ui/colors";
import { SHARE_TARGETS } from "../../../../packages/js/src/ui/share";
import { escapeHtml, httpUrl, scriptJson } from "@/server/http/landing/render-landing-page";

/**
 * The referrer's own page (`GET /portal/{token}`): one server-rendered HTML document, no framework,
 * nothing loaded from anywhere (styles and the copy button's few lines of script are inline under the
 * response's CSP nonce; share buttons are plain links that only leave on a click). It takes the
 * campaign's title, description and colours; dark mode follows the device. Every interpolated value
 * is escaped; only http(s) links are written.
 */

export type PortalPageInput = {
  summary: ReferralSummary;
  /** The page's own path (without query), for the friends list's paging links. */
  pagePath: string;
  nonce: string;
};

const STATUS_LABELS: Record<FriendStatus, string> = {
  arrived: "Followed your link",
  pending: "Joined",
  being_checked: "Being checked",
  rewarded: "Rewarded",
  not_rewarded: "Not rewarded",
};

/** One formatter for every date of every page: building one per call costs more than the page's queries. */
const DATE = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
const date = (iso: string) => DATE.format(new Date(iso));

/** The page's policy: its own nonce only, no connections, framed only by `frameAncestors` (the project's allowed origins). */
export function portalPageCsp(nonce: string, frameAncestors: string[]): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    "img-src data:",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${frameAncestors.length ? frameAncestors.join(" ") : "'none'"}`,
  ].join("; ");
}

/** Origins as CSP sources: each parsed and reduced to its origin, so nothing else can enter the header. */
export function frameSources(allowedOrigins: string[]): string[] {
  const out = new Set<string>();
  for (const value of allowedOrigins) {
    const url = httpUrl(value);
    if (url) out.add(new URL(url).origin);
  }
  return [...out];
}

function section(id: string, title: string, body: string): string {
  return `<section aria-labelledby="${id}"><h2 id="${id}">${escapeHtml(title)}</h2>${body}</section>`;
}

export function renderPortalPage({ summary, pagePath, nonce }: PortalPageInput): string {
  const { campaign, totals, friends, rewards, milestones } = summary;
  const n = escapeHtml(nonce);
  const accent = usableColor(campaign.themeColor, "#4F46E5");
  const background = usableColor(campaign.backgroundColor, "#FFFFFF");
  const link = summary.referralLink ?? summary.referralCode;
  const shareable = httpUrl(summary.referralLink);

  const shares = shareable
    ? `<ul class="share" aria-label="Share">${SHARE_TARGETS.map(
        (t) =>
          `<li><a href="${escapeHtml(t.url(shareable))}"${t.channel === "email" ? "" : ' target="_blank" rel="noopener noreferrer"'}><svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="${t.d}"/></svg>${escapeHtml(t.label)}</a></li>`,
      ).join("")}<li><button type="button" id="native" hidden>More…</button></li></ul>`
    : "";

  const parts: string[] = [];
  parts.push(`<header><h1>${escapeHtml(campaign.title)}</h1><p>${escapeHtml(campaign.description)}</p></header>`);
  parts.push(
    section(
      "link",
      "Your link",
      `<div class="lk"><input id="link" readonly value="${escapeHtml(link)}" aria-label="Your referral link"><button type="button" id="copy">Copy link</button></div>` +
        `<p class="code">Your code: <strong>${escapeHtml(summary.referralCode)}</strong></p><p id="status" role="status"></p>${shares}`,
    ),
  );
  if (totals) {
    const figures: [string, number][] = [
      ["Arrived", totals.arrived],
      ["Joined", totals.joined],
      ["Pending", totals.pending],
      ["Being checked", totals.beingChecked],
      ["Rewarded", totals.rewarded],
    ];
    parts.push(section("totals", "Your friends so far", `<dl class="totals">${figures.map(([label, value]) => `<div><dt>${label}</dt><dd>${value}</dd></div>`).join("")}</dl>`));
  }
  if (milestones && milestones.items.length) {
    const items = milestones.items
      .map((m) => {
        const done = Math.min(milestones.successfulReferrals, m.referrals);
        const state = m.reached ? `Reached ${m.reachedAt ? date(m.reachedAt) : ""}` : `${done} of ${m.referrals}`;
        return `<li><span class="mn">${escapeHtml(m.name)}</span> <span class="ms">${escapeHtml(state)}</span><progress max="${m.referrals}" value="${m.reached ? m.referrals : done}" aria-label="${escapeHtml(m.name)}: ${escapeHtml(state)}"></progress></li>`;
      })
      .join("");
    const next = milestones.next ? `<p>${milestones.next.remaining} more to reach ${escapeHtml(milestones.next.name)}.</p>` : "";
    parts.push(section("milestones", "Milestones", `${next}<ul class="milestones">${items}</ul>`));
  }
  if (rewards) {
    const list = rewards.recent.length
      ? `<ul class="rows">${rewards.recent.map((r) => `<li><span>${escapeHtml(r.eventName ?? "Reward")}</span><span>${date(r.claimedAt)}</span></li>`).join("")}</ul>`
      : "<p>No rewards yet: they come when friends you invited get started.</p>";
    parts.push(section("rewards", `Rewards earned: ${rewards.count}`, list));
  }
  if (friends) {
    const list = friends.items.length
      ? `<ul class="rows">${friends.items
          .map((f) => `<li><span>${escapeHtml(f.name)}</span><span class="st-${f.status}">${STATUS_LABELS[f.status]}</span><span>${date(f.arrivedAt)}</span></li>`)
          .join("")}</ul>`
      : "<p>Nobody yet. Share your link to invite friends.</p>";
    const pages = Math.max(1, Math.ceil(friends.totalCount / friends.pageSize));
    const nav =
      pages > 1
        ? `<nav aria-label="Friends pages">${friends.page > 1 ? `<a href="${escapeHtml(pagePath)}?page=${friends.page - 1}">Newer</a>` : ""}<span>Page ${friends.page} of ${pages}</span>${friends.hasNextPage ? `<a href="${escapeHtml(pagePath)}?page=${friends.page + 1}">Older</a>` : ""}</nav>`
        : "";
    parts.push(section("friends", "Friends you invited", list + nav));
  }

  const vars = `:root{--c:${accent};--cf:${readableTextOn(accent)};--bg:${background};--fg:${readableTextOn(background)}}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(campaign.title)}</title>
<style nonce="${n}">${vars}${STYLE}</style>
</head>
<body>
<main>
${parts.join("\n")}
</main>
<script nonce="${n}">${SCRIPT}(${scriptJson({ link, title: campaign.title })});</script>
</body>
</html>
`;
}

/** The plain page of a session that opens nothing: expired, or not valid (tampered, revoked, another project's, user erased). */
export function renderPortalRefusal(reason: "expired" | "invalid", nonce: string): string {
  const [title, text] =
    reason === "expired"
      ? ["This page has expired", "For your privacy, this page works for a limited time. Open it again from the app to see your referrals."]
      : ["This page is not available", "The link is not valid any more. Open the page again from the app."];
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${title}</title>
<style nonce="${escapeHtml(nonce)}">:root{color-scheme:light dark;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif}body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:Canvas;color:CanvasText}main{max-width:24rem;padding:2rem 1.5rem;text-align:center}h1{font-size:1.4rem}</style>
</head>
<body>
<main>
<h1>${title}</h1>
<p>${text}</p>
</main>
</body>
</html>
`;
}

/** Copy and native share; the page works without it (the link is selectable, share links are links). */
const SCRIPT = `(function (c) {
  var copy = document.getElementById("copy"), field = document.getElementById("link"), status = document.getElementById("status");
  copy.addEventListener("click", function () {
    function done(ok) {
      status.textContent = ok ? "Link copied to the clipboard." : "Select the link and copy it.";
      if (ok) { copy.textContent = "Copied!"; setTimeout(function () { copy.textContent = "Copy link"; }, 2000); }
    }
    function fallback() { field.select(); var ok = false; try { ok = document.execCommand("copy"); } catch (e) {} done(ok); }
    try { navigator.clipboard.writeText(c.link).then(function () { done(true); }, fallback); } catch (e) { fallback(); }
  });
  var native = document.getElementById("native");
  if (native && navigator.share) {
    native.hidden = false;
    native.addEventListener("click", function () { navigator.share({ title: c.title, url: c.link }).catch(function () {}); });
  }
})`;

const STYLE = [
  "*{box-sizing:border-box}",
  "body{margin:0;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;background:var(--bg);color:var(--fg);line-height:1.5}",
  "main{max-width:40rem;margin:0 auto;padding:1.5rem 1rem 3rem}",
  "h1{font-size:1.6rem;margin:0 0 .25rem}h2{font-size:1.1rem;margin:0 0 .75rem}",
  "header p{margin:0 0 1rem;opacity:.85}",
  "section{border:1px solid color-mix(in srgb,var(--fg) 16%,transparent);border-radius:.75rem;padding:1rem;margin:1rem 0}",
  ".lk{display:flex;gap:.5rem;flex-wrap:wrap}",
  ".lk input{flex:1 1 14rem;min-width:0;font:inherit;padding:.6rem .7rem;border:1px solid color-mix(in srgb,var(--fg) 40%,transparent);border-radius:.5rem;background:transparent;color:inherit}",
  "button{font:inherit;font-weight:600;padding:.6rem 1rem;border:0;border-radius:.5rem;background:var(--c);color:var(--cf);cursor:pointer}",
  "button:focus-visible,a:focus-visible,input:focus-visible{outline:3px solid var(--c);outline-offset:2px}",
  ".code{margin:.75rem 0 0}#status{min-height:1.5em;margin:.25rem 0}",
  ".share{list-style:none;padding:0;margin:.5rem 0 0;display:flex;flex-wrap:wrap;gap:.5rem}",
  ".share a,.share button{display:inline-flex;align-items:center;gap:.4rem;padding:.45rem .7rem;border-radius:.5rem;border:1px solid color-mix(in srgb,var(--fg) 30%,transparent);color:inherit;text-decoration:none;background:transparent;font-weight:500}",
  ".share svg{width:1rem;height:1rem;fill:currentColor}",
  ".totals{display:grid;grid-template-columns:repeat(auto-fit,minmax(6.5rem,1fr));gap:.5rem;margin:0}",
  ".totals div{padding:.5rem;border-radius:.5rem;background:color-mix(in srgb,var(--fg) 6%,transparent)}",
  ".totals dt{font-size:.85rem}.totals dd{margin:0;font-size:1.5rem;font-weight:700}",
  ".rows{list-style:none;padding:0;margin:0}",
  ".rows li{display:flex;flex-wrap:wrap;gap:.25rem 1rem;justify-content:space-between;padding:.5rem 0;border-top:1px solid color-mix(in srgb,var(--fg) 12%,transparent)}",
  ".rows li:first-child{border-top:0}",
  ".milestones{list-style:none;padding:0;margin:0}.milestones li{margin:.5rem 0}.mn{font-weight:600}",
  "progress{display:block;width:100%;height:.6rem;accent-color:var(--c)}",
  "nav{display:flex;gap:1rem;align-items:center;justify-content:space-between;margin-top:.75rem}",
  "a{color:inherit}",
  "@media (prefers-color-scheme:dark){:root{--bg:#111318;--fg:#f4f4f5;color-scheme:dark}}",
  "@media (prefers-reduced-motion:reduce){*{transition:none!important}}",
].join("");
