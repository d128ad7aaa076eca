/*
 * The sharing UI's "Your referrals" view: the identified user's referral summary (the same one as the
 * hosted portal page and the mobile client's getReferralSummary), fetched by the loader on demand and
 * drawn here: totals, milestone progress, rewards and the friends list, a page at a time.
 */
import type { ReferralSummary } from "../types.ts";
import { h } from "./dom.ts";

export type LoadSummary = (page: number) => Promise<ReferralSummary>;

const STATUS: Record<string, string> = {
  arrived: "Followed your link",
  pending: "Joined",
  being_checked: "Being checked",
  rewarded: "Rewarded",
  not_rewarded: "Not rewarded",
};

const day = (iso: string) => new Date(iso).toLocaleDateString(undefined, { day: "numeric", month: "short" });

/** Draws into `box` (emptied), starting with a status line while it loads; `back` returns to sharing. Returns the heading, to take focus. */
export function drawReferrals(box: HTMLElement, load: LoadSummary, back: () => void): HTMLElement {
  const status = h("p", { class: "st", role: "status" }, "Loading your referrals…");
  const list = h("ol", { class: "fr", "aria-label": "Friends you invited" });
  const more = h("button", { class: "cp", type: "button", hidden: true }, "Show more");
  const backButton = h("button", { class: "cp bk", type: "button", onclick: back }, "Back");
  const title = h("h2", { id: "rt", tabindex: "-1" }, "Your referrals");
  box.replaceChildren(title, status);
  let page = 1;

  const fill = (s: ReferralSummary) => {
    if (s.friends) {
      for (const f of s.friends.items) list.append(h("li", {}, h("span", {}, f.name), h("span", {}, STATUS[f.status] ?? f.status), h("span", {}, day(f.arrivedAt))));
      more.hidden = !s.friends.hasNextPage;
    }
  };

  more.onclick = () =>
    load(++page).then(fill, () => {
      status.textContent = "More could not be loaded.";
    });

  load(page).then(
    (s) => {
      status.textContent = "";
      const parts: (Node | false)[] = [];
      if (s.totals) {
        const t = s.totals;
        const figures: [string, number][] = [["Arrived", t.arrived], ["Joined", t.joined], ["Pending", t.pending], ["Being checked", t.beingChecked], ["Rewarded", t.rewarded]];
        parts.push(h("dl", { class: "tt" }, ...figures.map(([label, value]) => h("div", {}, h("dt", {}, label), h("dd", {}, String(value))))));
      }
      const m = s.milestones;
      if (m && m.items.length) {
        parts.push(
          h("h3", {}, "Milestones"),
          m.next ? h("p", {}, `${m.next.remaining} more to reach ${m.next.name}.`) : false,
          ...m.items.map((x) =>
            h(
              "p",
              { class: "ml" },
              h("span", {}, x.name, x.reached ? " ✓" : ""),
              h("progress", { max: x.referrals, value: Math.min(m.successfulReferrals, x.referrals), "aria-label": `${x.name}: ${x.reached ? "reached" : `${Math.min(m.successfulReferrals, x.referrals)} of ${x.referrals}`}` }),
            ),
          ),
        );
      }
      if (s.rewards) parts.push(h("h3", {}, `Rewards earned: ${s.rewards.count}`));
      if (s.friends) parts.push(h("h3", {}, "Friends you invited"), s.friends.items.length ? list : h("p", {}, "Nobody yet. Share your link to invite friends."), more);
      box.append(...(parts.filter(Boolean) as Node[]), backButton);
      fill(s);
    },
    () => {
      status.textContent = "Your referrals are not available right now.";
      box.append(backButton);
    },
  );
  return title;
}
