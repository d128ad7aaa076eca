"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import type { ExportFile } from "@/lib/schemas/exports";

type Progress = { state: "idle" } | { state: "running"; rows: number } | { state: "done"; rows: number } | { state: "failed"; message: string };

/** The dashboard's download address of an export, with the table's filter. */
export function exportUrl(projectId: string, file: ExportFile, query: Record<string, string | string[] | undefined> = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) for (const v of [value ?? []].flat()) params.append(key, v);
  const search = params.toString();
  return `/api/projects/${encodeURIComponent(projectId)}/exports/${file}.csv${search ? `?${search}` : ""}`;
}

/**
 * Downloads an export while it streams, counting its rows as they arrive (line ends outside quotes
 * are not told apart from those inside one, so a value with a line break counts twice: close enough
 * for progress), then hands the file to the browser.
 */
export function ExportButton({ label, url }: { label: string; url: string }) {
  const [progress, setProgress] = useState<Progress>({ state: "idle" });

  async function download() {
    setProgress({ state: "running", rows: 0 });
    try {
      const res = await fetch(url, { credentials: "same-origin" });
      if (!res.ok || !res.body) {
        const problem = (await res.json().catch(() => null)) as { detail?: string } | null;
        throw new Error(problem?.detail ?? `The export failed (HTTP ${res.status}).`);
      }
      const reader = res.body.getReader();
      const chunks: Uint8Array[] = [];
      let lines = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        for (const byte of value) if (byte === 0x0a) lines++;
        setProgress({ state: "running", rows: Math.max(0, lines - 1) });
      }
      const filename = /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? "export.csv";
      const href = URL.createObjectURL(new Blob(chunks as BlobPart[], { type: "text/csv" }));
      const a = Object.assign(document.createElement("a"), { href, download: filename });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(href), 10_000);
      setProgress({ state: "done", rows: Math.max(0, lines - 1) });
    } catch (error) {
      setProgress({ state: "failed", message: (error as Error).message });
    }
  }

  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <Button variant="secondary" size="sm" onClick={download} pending={progress.state === "running"}>
        {label}
      </Button>
      <span role="status" aria-live="polite" className="text-xs text-zinc-600">
        {progress.state === "running" && `${progress.rows.toLocaleString("en-GB")} rows so far…`}
        {progress.state === "done" && `${progress.rows.toLocaleString("en-GB")} rows downloaded.`}
        {progress.state === "failed" && <span className="text-red-700">{progress.message}</span>}
      </span>
    </span>
  );
}
