import type { Metadata } from "next";
import { ApiReference } from "@/components/api-reference/api-reference";
import { PageHeader } from "@/components/ui/card";

export const metadata: Metadata = { title: "API reference" };

export default function ApiReferencePage() {
  return (
    <>
      <PageHeader title="API reference" description="The REST API your backends call with an API key, generated from the same procedures this dashboard uses." />
      <ApiReference url="/api/v1/openapi.json" />
    </>
  );
}
