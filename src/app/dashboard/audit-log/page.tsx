import type { Metadata } from "next";
import { AuditLogOverview } from "@/components/audit-log/audit-log-overview";
import { PageHeader } from "@/components/ui/card";

export const metadata: Metadata = { title: "Audit log" };

export default function AuditLogPage() {
  return (
    <>
      <PageHeader title="Audit log" description="Who did what in this organisation: sign-ins, keys, secrets, members, webhooks, retries, projects." />
      <AuditLogOverview />
    </>
  );
}
