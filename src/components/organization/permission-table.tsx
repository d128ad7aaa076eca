import { MEMBER_ROLES } from "@/lib/schemas/accounts";
import { PERMISSIONS, PERMISSION_NAMES, ROLE_DESCRIPTIONS, ROLE_LABELS, type Principal } from "@/lib/permissions";

const COLUMNS: readonly Principal[] = [...MEMBER_ROLES, "readOnly"];

/** The permission table itself (src/lib/permissions.ts), as the server enforces it. */
export function PermissionTable() {
  return (
    <div className="space-y-4">
      <dl className="grid gap-2 text-sm sm:grid-cols-3">
        {MEMBER_ROLES.map((role) => (
          <div key={role}>
            <dt className="font-medium text-zinc-900">{ROLE_LABELS[role]}</dt>
            <dd className="text-zinc-600">{ROLE_DESCRIPTIONS[role]}</dd>
          </div>
        ))}
      </dl>
      <div className="relative overflow-x-auto">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Roles and permissions</caption>
          <thead className="border-b border-zinc-200 text-xs uppercase tracking-wide text-zinc-500">
            <tr>
              <th scope="col" className="py-2 pr-4 font-medium">Action</th>
              {COLUMNS.map((p) => (
                <th key={p} scope="col" className="py-2 pr-4 text-center font-medium whitespace-nowrap">
                  {ROLE_LABELS[p]}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-zinc-100">
            {PERMISSION_NAMES.map((name) => (
              <tr key={name}>
                <th scope="row" className="py-1.5 pr-4 font-normal text-zinc-800">
                  {PERMISSIONS[name].label} <code className="ml-1 font-mono text-xs text-zinc-500">{name}</code>
                </th>
                {COLUMNS.map((p) => {
                  const yes = (PERMISSIONS[name].roles as readonly Principal[]).includes(p);
                  return (
                    <td key={p} className={`py-1.5 pr-4 text-center ${yes ? "text-emerald-700" : "text-zinc-300"}`}>
                      <span aria-hidden>{yes ? "✓" : "–"}</span>
                      <span className="sr-only">{yes ? "yes" : "no"}</span>
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="text-xs text-zinc-500">API keys act with the role chosen when they are created: an owner or member key as that role, a read-only key for GET operations only.</p>
    </div>
  );
}
