"use client";

import { useEffect } from "react";

/** How long after a submit an error may still arrive (the server's answer) and take focus. */
const WATCH_MS = 15_000;

/**
 * After any form is submitted, the first field that becomes invalid (FormField sets aria-invalid from
 * the server's or the form's own check) takes focus, so keyboard and screen-reader users land on what
 * to fix. One listener for every form of the app; the browser's own checks focus their field already.
 */
export function useFocusFirstError(): void {
  useEffect(() => {
    const onSubmit = (event: Event) => {
      const form = event.target;
      if (!(form instanceof HTMLFormElement)) return;
      const observer = new MutationObserver(() => {
        const first = form.querySelector<HTMLElement>('[aria-invalid="true"]');
        if (!first) return;
        observer.disconnect();
        clearTimeout(timer);
        first.focus();
      });
      const timer = setTimeout(() => observer.disconnect(), WATCH_MS);
      observer.observe(form, { subtree: true, childList: true, attributes: true, attributeFilter: ["aria-invalid"] });
    };
    document.addEventListener("submit", onSubmit, true);
    return () => document.removeEventListener("submit", onSubmit, true);
  }, []);
}
