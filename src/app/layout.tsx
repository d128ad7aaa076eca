import type { Metadata } from "next";
import { headers } from "next/headers";
import type { ReactNode } from "react";
import { Providers } from "@/components/providers";
import { THEME_SCRIPT } from "@/components/theme/theme";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Referloop", template: "%s · Referloop" },
  description: "Referral programmes for web and mobile apps.",
};

/** The nonce src/proxy.ts put in this request's Content-Security-Policy (Next.js reads it from there too). */
async function cspNonce(): Promise<string | undefined> {
  const policy = (await headers()).get("content-security-policy");
  return policy?.match(/'nonce-([^']+)'/)?.[1];
}

export default async function RootLayout({ children }: { children: ReactNode }) {
  const nonce = await cspNonce();
  return (
    // The theme script sets the class on <html> before React hydrates: not a mismatch to report.
    <html lang="en" suppressHydrationWarning>
      <head>
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />
      </head>
      <body className="min-h-screen font-sans">
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
