import { rmSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { listMailbox } from "@/server/mail/mailbox";
import { sendVerificationEmail } from "@/server/mail/send";
import { mailFolder } from "@/server/mail/transport";
import { uniqueEmail } from "./helpers";

/*
 * The e2e server runs without SMTP_URL, so e-mail goes to the data folder. This process shares the
 * server's working directory and environment, so what it writes there is the server's mailbox.
 */
const sent: string[] = [];
test.afterEach(() => {
  // Leave a developer's mailbox as it was.
  for (const m of listMailbox()) if (sent.includes(m.messageId)) rmSync(path.join(mailFolder(), `${m.id}.json`));
});

test("the development mailbox lists written e-mail newest first, and its link can be followed", async ({ page, baseURL }) => {
  test.skip(Boolean(process.env.SMTP_URL), "e-mail goes to SMTP_URL, not the data folder");
  const older = uniqueEmail("older");
  const newer = uniqueEmail("newer");
  const token = Math.random().toString(36).slice(2);
  sent.push(await sendVerificationEmail({ to: older, link: `${baseURL}/sign-in?older=1` }));
  sent.push(await sendVerificationEmail({ to: newer, link: `${baseURL}/sign-up?token=${token}` }));

  await page.goto("/dev/mail");
  await expect(page.getByRole("heading", { name: "Development mailbox", level: 1 })).toBeVisible();
  const messages = page.getByRole("article", { name: "Verify your e-mail address" });
  await expect(messages.nth(0)).toContainText(`To ${newer}`);
  await expect(messages.nth(1)).toContainText(`To ${older}`);

  await messages.nth(0).getByRole("link", { name: `${baseURL}/sign-up?token=${token}` }).click();
  await expect(page).toHaveURL(`${baseURL}/sign-up?token=${token}`);
  await expect(page.getByRole("heading", { name: "Create your account" })).toBeVisible();
});
