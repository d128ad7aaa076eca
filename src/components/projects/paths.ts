/** The project's pages, by section: one place that knows the URLs (the tabs in the project layout match). */
const SECTIONS = {
  overview: "",
  settings: "settings",
  users: "users",
  referrals: "referrals",
  campaign: "campaign",
  webhooks: "webhooks",
  deliveries: "deliveries",
  inboundEvents: "inbound-events",
  activity: "activity",
  rewardEvents: "activity/reward-events",
} as const;

export type ProjectSection = keyof typeof SECTIONS;

export function projectPath(projectId: string, section: ProjectSection): string {
  const segment = SECTIONS[section];
  return `/dashboard/projects/${encodeURIComponent(projectId)}${segment ? `/${segment}` : ""}`;
}
