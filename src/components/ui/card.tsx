import type { ReactNode } from "react";

type CardProps = {
  title?: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  tone?: "default" | "danger";
  children?: ReactNode;
  className?: string;
  /** For links to this panel (`#id`). */
  id?: string;
};

/** A titled panel; the title is a heading so sections can be found by role. */
export function Card({ title, description, actions, tone = "default", children, className = "", id }: CardProps) {
  const border = tone === "danger" ? "border-red-200" : "border-zinc-200";
  return (
    <section id={id} className={`scroll-mt-4 rounded-lg border ${border} bg-white shadow-sm ${className}`}>
      {(title || actions) && (
        <header className="flex items-start justify-between gap-4 border-b border-zinc-100 px-5 py-4">
          <div>
            {title && <h2 className={`text-base font-semibold ${tone === "danger" ? "text-red-700" : "text-zinc-900"}`}>{title}</h2>}
            {description && <p className="mt-0.5 text-sm text-zinc-500">{description}</p>}
          </div>
          {actions}
        </header>
      )}
      <div className="px-5 py-4">{children}</div>
    </section>
  );
}

export function PageHeader({ title, description, actions }: { title: ReactNode; description?: ReactNode; actions?: ReactNode }) {
  return (
    <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight text-zinc-900">{title}</h1>
        {description && <p className="mt-1 text-sm text-zinc-500">{description}</p>}
      </div>
      {actions}
    </div>
  );
}
