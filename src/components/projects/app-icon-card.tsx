"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRef, useState, type ChangeEvent } from "react";
import { ErrorMessage, StatusMessage } from "@/components/ui/alert";
import { PermissionNote, usePermission } from "@/components/dashboard/permissions";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { FormField, inputClasses } from "@/components/ui/form-field";
import { toFormErrors } from "@/lib/errors";
import { checkIcon, MAX_ICON_BYTES } from "@/lib/sniff-image";
import { useTRPC } from "@/lib/trpc";
import type { Project } from "@/lib/trpc-types";

/** Only icons this app serves are previewed: the dashboard's CSP loads images from its own origin. */
const servedHere = (url: string) => URL.canParse(url) && new URL(url).origin === window.location.origin && new URL(url).pathname.startsWith("/icons/");

/**
 * A Mobile project's app icon: upload (PNG, JPEG or WebP up to 10 MB, checked here by content for a
 * quick answer and again by the server) or remove. The landing page shows it beside the app's name.
 */
export function AppIconCard({ project }: { project: Project }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const onSaved = (message: string) => (updated: Project) => {
    setError(null);
    setDone(message);
    if (input.current) input.current.value = "";
    queryClient.setQueryData(trpc.projects.get.queryKey({ projectId: updated.uniqueId }), updated);
  };
  const onFailed = (failure: unknown) => {
    setDone(null);
    setError(toFormErrors(failure).message ?? "The icon was not saved.");
  };
  const permission = usePermission("projects.update");
  const upload = useMutation(trpc.projects.setIcon.mutationOptions({ onSuccess: onSaved("Icon uploaded."), onError: onFailed }));
  const remove = useMutation(trpc.projects.update.mutationOptions({ onSuccess: onSaved("Icon removed."), onError: onFailed }));
  const iconUrl = project.app?.iconUrl ?? null;

  async function onFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    if (!file) return;
    setDone(null);
    // Not read at all when too large; else the same check as the server's, for an answer before uploading.
    if (file.size > MAX_ICON_BYTES) return setError(`The icon is larger than ${MAX_ICON_BYTES / 1024 / 1024} MB.`);
    const check = checkIcon(new Uint8Array(await file.arrayBuffer()));
    if (!check.ok) return setError(check.message);
    const form = new FormData();
    form.append("projectId", project.uniqueId);
    form.append("icon", file);
    upload.mutate(form);
  }

  return (
    <Card title="App icon" description="Shown on the referral landing page while it opens the store.">
      <div className="flex items-start gap-5">
        {iconUrl && servedHere(iconUrl) ? (
          <img src={iconUrl} alt="Current app icon" width={64} height={64} className="h-16 w-16 rounded-xl border border-zinc-200 object-cover" />
        ) : (
          <div className="flex h-16 w-16 items-center justify-center rounded-xl border border-dashed border-zinc-300 text-xs text-zinc-500">
            {iconUrl ? "External" : "No icon"}
          </div>
        )}
        <div className="min-w-0 flex-1 space-y-3">
          {iconUrl && <p className="truncate font-mono text-xs text-zinc-500">{iconUrl}</p>}
          <FormField label="Upload an icon" hint={`PNG, JPEG or WebP, up to ${MAX_ICON_BYTES / 1024 / 1024} MB; square, 1024 × 1024 is best.`}>
            {(p) => (
              <input
                {...p}
                ref={input}
                type="file"
                accept="image/png,image/jpeg,image/webp"
                disabled={upload.isPending || !permission.allowed}
                onChange={(event) => void onFile(event)}
                className={`${inputClasses} file:mr-3 file:rounded file:border-0 file:bg-zinc-100 file:px-2 file:py-1 file:text-sm`}
              />
            )}
          </FormField>
          <PermissionNote reason={permission.reason} />
          {iconUrl && permission.allowed && (
            <Button variant="secondary" size="sm" pending={remove.isPending} onClick={() => remove.mutate({ projectId: project.uniqueId, app: { iconUrl: null } })}>
              Remove icon
            </Button>
          )}
          <ErrorMessage>{error}</ErrorMessage>
          {done && <StatusMessage>{done}</StatusMessage>}
        </div>
      </div>
    </Card>
  );
}
