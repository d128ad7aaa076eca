"use client";

import { useEffect, useRef, useState } from "react";

type Mode = "push" | "replace";

/**
 * A filter field that follows the keyboard at once and sends its draft once typing pauses (`edit`,
 * sent with "replace": no history entry per pause) or at once (`flush`: Enter, a button; "push").
 * The value in force (the URL's) can also move by itself (Back, Clear filters, a link): the draft
 * then shows it, and a pause still pending is dropped so that it cannot send the old draft over it.
 * The field's own send catching up in `value` leaves what was typed since alone. `send` answers
 * false to hold a draft back (a half-typed address); `paused` is the draft as of the last pause,
 * for messages about it.
 */
export function useTypingDraft<T>(value: T, send: (draft: T, mode: Mode) => boolean | void, same: (a: T, b: T) => boolean = Object.is, delayMs = 300) {
  const [draft, setDraft] = useState(value);
  const [paused, setPaused] = useState(value);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  // The value in force as this field knows it: what it last sent, or what last arrived from elsewhere.
  const known = useRef(value);
  const sendRef = useRef(send);
  useEffect(() => {
    sendRef.current = send;
  });

  useEffect(() => {
    if (same(value, known.current)) return;
    clearTimeout(timer.current);
    known.current = value;
    setDraft(value);
    setPaused(value);
  }, [value]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const flush = (next: T, mode: Mode) => {
    clearTimeout(timer.current);
    setPaused(next);
    if (same(next, known.current) || sendRef.current(next, mode) === false) return;
    known.current = next;
  };
  const edit = (next: T) => {
    setDraft(next);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => flush(next, "replace"), delayMs);
  };
  return { draft, paused, edit, flush: (mode: Mode = "push") => flush(draft, mode) };
}
