"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ErrorMessage, StatusMessage } from "@/components/ui/alert";
import { PermissionNote, usePermission } from "@/components/dashboard/permissions";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { KeyValueEditor, recordFromRows, rowsFromRecord, type KeyValueRow } from "@/components/ui/key-value-editor";
import { toFormErrors } from "@/lib/errors";
import { useTRPC } from "@/lib/trpc";
import type { AppUser } from "./app-users-table";

/** The user's attributes; saving replaces the whole map with the rows shown. */
export function AttributesCard({ projectId, user }: { projectId: string; user: AppUser }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [rows, setRows] = useState<KeyValueRow[]>(() => rowsFromRecord(user.attributes));
  const [localError, setLocalError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const update = useMutation(
    trpc.appUsers.update.mutationOptions({
      onSuccess: async (updated) => {
        setSaved(true);
        setRows(rowsFromRecord(updated.attributes));
        queryClient.setQueryData(trpc.appUsers.get.queryKey({ projectId, uniqueId: updated.uniqueId }), updated);
        await queryClient.invalidateQueries({ queryKey: trpc.appUsers.list.queryKey() });
      },
    }),
  );

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = recordFromRows(rows);
    if ("error" in parsed) {
      setLocalError(parsed.error);
      return;
    }
    setLocalError(null);
    update.mutate({ projectId, uniqueId: user.uniqueId, attributes: parsed.record });
  }

  const change = (next: KeyValueRow[]) => {
    setRows(next);
    setSaved(false);
    setLocalError(null);
  };
  const write = usePermission("appUsers.write");
  const serverError = update.isError ? toFormErrors(update.error, ["attributes"]) : null;
  return (
    <Card title="Attributes" description="Free-form string values. Saving replaces all attributes with the rows below.">
      <form onSubmit={onSubmit} aria-label="Attributes" className="space-y-4">
        <KeyValueEditor rows={rows} onChange={change} disabled={update.isPending || !write.allowed} />
        <ErrorMessage>{localError ?? serverError?.fields.attributes ?? serverError?.message}</ErrorMessage>
        <div className="flex items-center gap-3">
          <Button type="submit" pending={update.isPending} disabled={!write.allowed}>
            Save attributes
          </Button>
          <PermissionNote reason={write.reason} />
          {saved && <StatusMessage>Saved.</StatusMessage>}
        </div>
      </form>
    </Card>
  );
}
