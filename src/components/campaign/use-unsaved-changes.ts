"use client";

import { useEffect } from "react";

export const UNSAVED_MESSAGE = "You have unsaved changes to the campaign. Leave this page and lose them?";

/**
 * While `dirty`, leaving asks first: the browser's own prompt on reload, close and typed URLs
 * (beforeunload), and a confirm on in-app links (the app router has no navigation guard, so link
 * clicks are caught before its handler runs).
 */
export function useUnsavedChanges(dirty: boolean) {
  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = "";
    };
    const onClick = (event: MouseEvent) => {
      const link = (event.target as Element | null)?.closest?.("a[href]");
      if (!(link instanceof HTMLAnchorElement) || event.defaultPrevented || event.button !== 0) return;
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || link.target === "_blank") return; // a new tab leaves nothing
      const to = new URL(link.href);
      if (to.origin !== location.origin || (to.pathname === location.pathname && to.search === location.search)) return;
      if (window.confirm(UNSAVED_MESSAGE)) return;
      event.preventDefault();
      event.stopPropagation();
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    document.addEventListener("click", onClick, true);
    return () => {
      window.removeEventListener("beforeunload", onBeforeUnload);
      document.removeEventListener("click", onClick, true);
    };
  }, [dirty]);
}
