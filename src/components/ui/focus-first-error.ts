"use client";

import { useEffect } from "react";

/** How long after a submit an error may still arrive (the server's answer) and take focus. */
const WATCH_MS = 15_000;
/** Errors a form sets in its submit handler are drawn by then; unchanged ones cause no mutation to wait for. */
const SAME_ERRORS_MS = 100;

/**
 * After any form is submitted, its first field marked invalid (FormField sets aria-invalid from the
 * server's or the form's own check) takes focus, so keyboard and screen-reader users land on what to
 * fix. One listener for every form of the app; the browser's own checks focus their field already.
 *
 * While the request is on its way (a Button with `pending` says aria-busy) the fields still show the
 * previous submit's errors: the answer decides, once the form has settled. A second submit with the same
 * errors changes nothing in the page, so the form is also looked at shortly after the submit. A key or a
 * click ends the watch: focus is never taken back from someone who has moved on.
 */
export function useFocusFirstError(): void {
  useEffect(() => {
    let stop: (() => void) | undefined;
    const onSubmit = (event: Event) => {
      const form = event.target;
      if (!(form instanceof HTMLFormElement)) return;
      stop?.();
      let settle: ReturnType<typeof setTimeout> | undefined;
      const check = () => {
        if (form.querySelector('[aria-busy="true"]')) return;
        const first = form.querySelector<HTMLElement>('[aria-invalid="true"]');
        if (!first) return;
        stop?.();
        first.focus();
      };
      const same = setTimeout(check, SAME_ERRORS_MS);
      const observer = new MutationObserver(() => {
        clearTimeout(settle);
        clearTimeout(same);
        settle = setTimeout(check, 0);
      });
      observer.observe(form, { subtree: true, childList: true, attributes: true, attributeFilter: ["aria-invalid", "aria-busy"] });
      const end = setTimeout(() => stop?.(), WATCH_MS);
      const movedOn = () => stop?.();
      document.addEventListener("keydown", movedOn, true);
      document.addEventListener("pointerdown", movedOn, true);
      stop = () => {
        observer.disconnect();
        [settle, same, end].forEach(clearTimeout);
        document.removeEventListener("keydown", movedOn, true);
        document.removeEventListener("pointerdown", movedOn, true);
        stop = undefined;
      };
    };
    document.addEventListener("submit", onSubmit, true);
    return () => {
      document.removeEventListener("submit", onSubmit, true);
      stop?.();
    };
  }, []);
}
