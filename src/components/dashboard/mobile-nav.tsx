"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useRef, useState, type ReactNode } from "react";

const PANEL_ID = "dashboard-menu";

/**
 * The sidebar: always shown from the md breakpoint up; below it, behind a menu button. Opening moves
 * focus to the first control in the menu; Escape closes it and returns focus to the button; following a
 * link closes it.
 */
export function MobileNav({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const pathname = usePathname();
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const [shownFor, setShownFor] = useState(pathname);

  // A new page closes the menu (adjusted during render, not in an effect).
  if (shownFor !== pathname) {
    setShownFor(pathname);
    setOpen(false);
  }

  useEffect(() => {
    if (!open) return;
    panel.current?.querySelector<HTMLElement>("a[href], button:not([disabled]), select:not([disabled]), input:not([disabled])")?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open]);

  return (
    <div className="flex flex-col gap-6 px-4 py-3 md:sticky md:top-0 md:h-screen md:py-5">
      <div className="flex items-center justify-between">
        <Link href="/dashboard" className="px-3 text-lg font-semibold tracking-tight text-brand-700">
          Referloop
        </Link>
        <button
          ref={button}
          type="button"
          aria-expanded={open}
          aria-controls={PANEL_ID}
          onClick={() => setOpen((was) => !was)}
          className="inline-flex size-10 items-center justify-center rounded-md text-zinc-700 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-brand-500 md:hidden"
        >
          <span className="sr-only">Menu</span>
          <svg aria-hidden viewBox="0 0 24 24" className="size-6" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
            {open ? <path d="M6 6l12 12M18 6L6 18" /> : <path d="M4 7h16M4 12h16M4 17h16" />}
          </svg>
        </button>
      </div>
      <div ref={panel} id={PANEL_ID} className={`${open ? "flex" : "hidden"} flex-1 flex-col gap-6 pb-3 md:flex md:pb-0`}>
        {children}
      </div>
    </div>
  );
}
