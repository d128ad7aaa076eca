import type { Metadata } from "next";
import { AccountOverview } from "@/components/account/account-overview";
import { PageHeader } from "@/components/ui/card";

export const metadata: Metadata = { title: "Account" };

export default function AccountPage() {
  return (
    <>
      <PageHeader title="Account" description="Your password and where you are signed in." />
      <AccountOverview />
    </>
  );
}
