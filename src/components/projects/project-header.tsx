"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { Badge } from "@/components/ui/badge";
import { useTRPC } from "@/lib/trpc";

export function ProjectHeader({ projectId }: { projectId: string }) {
  const trpc = useTRPC();
  const project = useQuery(trpc.projects.get.queryOptions({ projectId }));
  return (
    <div className="mb-4">
      <Link href="/dashboard" className="text-sm text-zinc-500 hover:text-zinc-800">
        ← Projects
      </Link>
      <div className="mt-2 flex items-center gap-3">
        <h1 className="text-2xl font-semibold tracking-tight text-zinc-900">{project.data?.name ?? (project.isError ? "Project" : "…")}</h1>
        {project.data && <Badge tone={project.data.appType === "Mobile" ? "violet" : "blue"}>{project.data.appType}</Badge>}
      </div>
    </div>
  );
}
