"use client";

import { inputClasses } from "@/components/ui/form-field";
import { useSwitchOrganization } from "./use-switch-organization";

type Organization = { id: string; name: string; role: string };

export function OrganizationSwitcher({ organizations, activeId }: { organizations: Organization[]; activeId: string | null }) {
  const { switchTo, pending } = useSwitchOrganization();
  return (
    <div>
      <label htmlFor="organization-switcher" className="mb-1 block text-xs font-medium uppercase tracking-wide text-zinc-500">
        Organisation
      </label>
      <select
        id="organization-switcher"
        value={activeId ?? ""}
        disabled={pending || organizations.length < 2}
        onChange={(e) => switchTo(e.target.value)}
        className={inputClasses}
      >
        {organizations.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </select>
    </div>
  );
}
