import { readFileSync } from "node:fs";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { createApiKey, createProject, followMailLink, inviteAndJoin, PASSWORD, signUp, uniqueEmail } from "./helpers";

/** A second, separate browser (its own cookies), closed with the test. */
async function otherBrowser(browser: Browser): Promise<Page> {
  return (await browser.newContext()).newPage();
}

async function signIn(page: Page, email: string, password = PASSWORD) {
  await page.goto("/sign-in");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

test.describe("revocable sessions", () => {
  test("a copied session cookie answers 401 after sign-out, and opens no dashboard", async ({ page, browser, playwright, baseURL }) => {
    await signUp(page);
    const cookies = await page.context().cookies();
    const copied = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { cookie: cookies.map((c) => `${c.name}=${c.value}`).join("; ") } });
    expect((await copied.get("/api/trpc/accounts.me")).status()).toBe(200);

    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/sign-in$/);

    // The same cookie, replayed over HTTP: the server ended its session.
    const replayed = await copied.get("/api/trpc/accounts.me");
    expect(replayed.status()).toBe(401);
    expect((await copied.get("/api/trpc/projects.list")).status()).toBe(401);
    // And in a browser that still holds it: the dashboard sends it to sign-in, which shows its form.
    const thief = await otherBrowser(browser);
    await thief.context().addCookies(cookies);
    await thief.goto("/dashboard");
    await expect(thief).toHaveURL(/\/sign-in/);
    await expect(thief.getByRole("button", { name: "Sign in" })).toBeVisible();
    await copied.dispose();
    await thief.context().close();
  });

  test("the account page lists sessions; changing the password signs out the other device; sign out everywhere", async ({ page, browser }) => {
    const email = await signUp(page);
    const laptop = await otherBrowser(browser);
    await signIn(laptop, email);

    await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Account" }).click();
    const sessions = page.getByRole("table", { name: "Sessions" });
    await expect(sessions.getByRole("row")).toHaveCount(3); // header and two sessions
    await expect(sessions.getByText("This device")).toHaveCount(1);
    await expect(sessions).toContainText("Chrome on Linux");
    // next-auth's sign-in stored where the browser connected from (the socket's address, no proxy trusted).
    await expect(sessions.getByRole("row").filter({ hasText: "This device" })).toContainText("127.0.0.1");

    const form = page.getByRole("form", { name: "Change password" });
    await form.getByLabel("Current password").fill(PASSWORD);
    await form.getByLabel("New password").fill("password123");
    await form.getByRole("button", { name: "Change password" }).click();
    await expect(form.getByText(/New password is one of the most common passwords/)).toBeVisible();
    await form.getByLabel("New password").fill("a much better passphrase");
    await form.getByRole("button", { name: "Change password" }).click();
    await expect(page.getByText("Password changed. 1 other session was signed out.")).toBeVisible();
    await expect(sessions.getByRole("row")).toHaveCount(2);

    await laptop.goto("/dashboard");
    await expect(laptop).toHaveURL(/\/sign-in/);
    await signIn(laptop, email, "a much better passphrase");

    await page.getByRole("button", { name: "Sign out everywhere" }).click();
    await page.getByRole("button", { name: "Sign out everywhere" }).click();
    await expect(page).toHaveURL(/\/sign-in$/);
    await laptop.goto("/dashboard/account");
    await expect(laptop).toHaveURL(/\/sign-in/);
    await laptop.context().close();
  });
});

test("password reset from the e-mailed link ends every session", async ({ page, browser }) => {
  const email = await signUp(page);
  const other = await otherBrowser(browser);
  await other.goto("/sign-in");
  await other.getByRole("link", { name: "Forgot your password?" }).click();
  await expect(other.getByRole("heading", { name: "Forgot your password?" })).toBeVisible();
  await other.getByLabel("E-mail").fill(email);
  await other.getByRole("button", { name: "Send reset link" }).click();
  await expect(other.getByText("If an account uses this address, we sent it a link")).toBeVisible();

  await followMailLink(other, email, /^Reset your Referloop password$/);
  await other.getByLabel("New password", { exact: true }).fill("reset to something new");
  await other.getByRole("button", { name: "Set new password" }).click();
  await expect(other.getByText(`every session of ${email} was signed out`)).toBeVisible();
  await other.getByRole("link", { name: "Sign in" }).click();
  await signIn(other, email, "reset to something new");

  // The session that was open before the reset is over.
  await page.reload();
  await expect(page).toHaveURL(/\/sign-in/);
  await other.context().close();
});

test("an invitation from the e-mail: the invited viewer joins once, sees the owner-only controls disabled, and the owner audits it", async ({ page, browser }) => {
  await signUp(page, { organization: "Invite Co" });
  const projectId = await createProject(page, { name: "Invite shop" });
  const viewerEmail = uniqueEmail("viewer");
  const viewer = await otherBrowser(browser);
  const invitation = await inviteAndJoin(page, viewer, viewerEmail, "Viewer");
  await expect(viewer.getByLabel("Organisation", { exact: true }).locator("option:checked")).toHaveText("Invite Co");

  // A viewer reads the project, but cannot change it.
  await viewer.goto(`/dashboard/projects/${projectId}/settings`);
  await expect(viewer.getByRole("button", { name: "Rotate secret" })).toBeDisabled();
  // The secret's card and the publishable key's card.
  await expect(viewer.getByText("Only owners can rotate project secrets and publishable keys.")).toHaveCount(2);
  await expect(viewer.getByRole("button", { name: "Delete project" })).toBeDisabled();
  await expect(viewer.getByText("Only owners can delete projects.")).toBeVisible();
  await expect(viewer.getByRole("button", { name: "Save changes" })).toBeDisabled();
  // The campaign page reads only: its fields are disabled too, not only Save.
  await viewer.goto(`/dashboard/projects/${projectId}/campaign`);
  const campaign = viewer.getByRole("form", { name: "Campaign" });
  await expect(campaign.getByText("Read only: your role can view this campaign but not change it.")).toBeVisible();
  for (const label of ["Button type", "Title", "Theme colour", "Promo text", "Attribution window (days)"]) {
    await expect(campaign.getByLabel(label, { exact: true })).toBeDisabled();
  }
  await expect(campaign.getByRole("button", { name: "Save campaign" })).toBeDisabled();
  await expect(campaign.getByLabel("Per UTC day")).toBeDisabled();
  await expect(campaign.getByLabel("Hold every reward (days)")).toBeDisabled();
  await viewer.goto("/dashboard/api-keys");
  await expect(viewer.getByText("Only owners and members can create API keys")).toBeVisible();
  await expect(viewer.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Audit log" })).toHaveCount(0);

  // The link is used up.
  await viewer.goto(invitation);
  await expect(viewer.getByText("This invitation was already used.")).toBeVisible();
  await viewer.context().close();

  // The owner's audit log shows the invitation and its acceptance; the export downloads them.
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Audit log" }).click();
  const log = page.getByRole("table", { name: "Audit log" });
  await expect(log.getByRole("row", { name: /Joined by invitation/ })).toContainText(viewerEmail);
  await expect(log.getByRole("row", { name: /Invited a member/ })).toContainText(viewerEmail);
  await expect(log.getByRole("row", { name: /Created a project/ })).toContainText("Invite shop");
  await page.getByLabel("Action", { exact: true }).selectOption({ label: "Joined by invitation" });
  await expect(log.getByRole("row")).toHaveCount(2);
  // By the address the request came from: this browser's, or nobody's.
  const ip = page.getByLabel("IP address", { exact: true });
  await ip.fill("203.0.113.9");
  await expect(page.getByText("No entries match.")).toBeVisible();
  await ip.fill("127.0.0.1");
  await expect(log.getByRole("row")).toHaveCount(2);
  await expect(log.getByRole("row").nth(1)).toContainText("127.0.0.1");
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export CSV" }).click();
  const csv = readFileSync((await (await download).path())!, "utf8");
  const lines = csv.trimEnd().split("\r\n");
  expect(lines[0]).toBe("createdAt,action,actorType,actorId,actorLabel,targetType,targetId,targetLabel,details,userAgent,ipAddress");
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain(`invitation.accept,user,`);
  expect(lines[1]).toContain(viewerEmail);
  expect(lines[1]).toMatch(/,(::ffff:)?127\.0\.0\.1$/);

  // Changing a member's role asks first: Cancel keeps the role, Change role applies it.
  await page.goto("/dashboard/organization");
  const role = page.getByLabel(`Role of ${viewerEmail}`);
  const confirmRole = page.getByRole("group", { name: `Change the role of ${viewerEmail}` });
  await role.selectOption({ label: "Member" });
  await expect(confirmRole).toContainText(`Change ${viewerEmail} from viewer to member?`);
  await confirmRole.getByRole("button", { name: "Cancel" }).click();
  await expect(confirmRole).toHaveCount(0);
  await expect(role).toHaveValue("viewer");
  await role.selectOption({ label: "Member" });
  await confirmRole.getByRole("button", { name: "Change role" }).click();
  await expect(confirmRole).toHaveCount(0);
  await expect(role).toHaveValue("member");
  await page.reload();
  await expect(role).toHaveValue("member");
});

test("a member cannot delete a project; removing them revokes the keys they created (401), after the owner saw the list", async ({ page, browser, request }) => {
  await signUp(page, { organization: "Keys Co" });
  const projectId = await createProject(page, { name: "Keep me" });
  const memberEmail = uniqueEmail("member");
  const member = await otherBrowser(browser);
  await inviteAndJoin(page, member, memberEmail, "Member");

  const memberKey = await createApiKey(member, "Member backend", "member");
  const auth = { Authorization: `Bearer ${memberKey}` };
  expect((await request.get(`/api/v1/public/projects/${projectId}`, { headers: auth })).status()).toBe(200);
  expect((await request.delete(`/api/v1/public/projects/${projectId}`, { headers: auth })).status()).toBe(403);
  await member.goto(`/dashboard/projects/${projectId}/settings`);
  await expect(member.getByRole("button", { name: "Delete project" })).toBeDisabled();
  await expect(member.getByText("Only owners can delete projects.")).toBeVisible();
  // The key list shows who made each key.
  await page.goto("/dashboard/api-keys");
  await expect(page.getByRole("table", { name: "API keys" }).getByRole("row", { name: /Member backend/ })).toContainText(memberEmail);

  // Only owners rename the organisation; every member sees the new name.
  await member.goto("/dashboard/organization");
  await expect(member.getByRole("table", { name: "Members" })).toBeVisible();
  await expect(member.getByRole("form", { name: "Rename the organisation" })).toHaveCount(0);
  await page.goto("/dashboard/organization");
  const rename = page.getByRole("form", { name: "Rename the organisation" });
  await expect(rename.getByLabel("Organisation name")).toHaveValue("Keys Co");
  await rename.getByLabel("Organisation name").fill("Keys Company");
  await rename.getByRole("button", { name: "Rename" }).click();
  await expect(rename.getByRole("status")).toHaveText("Renamed.");
  await expect(page.getByLabel("Organisation", { exact: true }).locator("option:checked")).toHaveText("Keys Company");
  await expect(page.getByRole("heading", { name: "Members of Keys Company" })).toBeVisible();

  await page.getByRole("button", { name: `Remove ${memberEmail}` }).click();
  const confirm = page.getByRole("dialog", { name: `Remove ${memberEmail}` });
  await expect(confirm.getByRole("list", { name: "API keys to revoke" })).toContainText("Member backend");
  await confirm.getByRole("button", { name: "Remove and revoke 1 key" }).click();
  await expect(page.getByRole("table", { name: "Members" })).not.toContainText(memberEmail);

  expect((await request.get(`/api/v1/public/projects/${projectId}`, { headers: auth })).status()).toBe(401);
  // The member's next request no longer acts for the organisation.
  await member.goto("/dashboard");
  // They joined by invitation, with no organisation of their own: the dashboard offers to create one.
  await expect(member.getByRole("form", { name: "Create an organisation" })).toBeVisible();
  await expect(member.getByText("Keep me")).toHaveCount(0);
  await member.context().close();
});
