"use client";

import { useState } from "react";
import { ExportButton, exportUrl } from "./export-button";

/** The app users the table's filter shows as CSV, with the attribute keys typed here as extra columns. */
export function AppUsersExport({ projectId, search, hasReferrals }: { projectId: string; search?: string; hasReferrals?: "true" | "false" }) {
  const [keys, setKeys] = useState("");
  const attributes = keys
    .split(",")
    .map((k) => k.trim())
    .filter(Boolean);
  return (
    <div className="flex flex-wrap items-center gap-2">
      <label className="flex items-center gap-2 text-sm text-zinc-700">
        Attribute columns
        <input
          value={keys}
          onChange={(e) => setKeys(e.target.value)}
          placeholder="plan, country"
          className="w-40 rounded-md border border-zinc-300 px-2 py-1 text-sm"
        />
      </label>
      <ExportButton label="Export CSV" url={exportUrl(projectId, "app-users", { search, hasReferrals, attributes })} />
    </div>
  );
}
