import type { Metadata } from "next";
import { ApiKeysOverview } from "@/components/api-keys/api-keys-overview";
import { PageHeader } from "@/components/ui/card";

export const metadata: Metadata = { title: "API keys" };

export default function ApiKeysPage() {
  return (
    <>
      <PageHeader title="API keys" description="Keys act for the whole organisation. Create one per backend so each can be revoked alone." />
      <ApiKeysOverview />
    </>
  );
}
