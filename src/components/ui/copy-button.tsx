"use client";

import { useEffect, useState } from "react";
import { Button, type ButtonSize } from "./button";

async function copyText(text: string): Promise<void> {
  if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
  // The async clipboard needs a secure context; a dashboard opened over plain http on a LAN
  // address still deserves a working copy button.
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.appendChild(area);
  area.select();
  const ok = document.execCommand("copy");
  area.remove();
  if (!ok) throw new Error("copy failed");
}

/** Copies `value`; `label` names what is copied for screen readers ("Copy API key"). */
export function CopyButton({ value, label, size = "sm" }: { value: string; label: string; size?: ButtonSize }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => {
    if (state === "idle") return;
    const timer = setTimeout(() => setState("idle"), 2000);
    return () => clearTimeout(timer);
  }, [state]);
  return (
    <Button
      variant="secondary"
      size={size}
      aria-label={`Copy ${label}`}
      onClick={() => copyText(value).then(() => setState("copied"), () => setState("failed"))}
    >
      {state === "copied" ? "Copied" : state === "failed" ? "Copy failed" : "Copy"}
    </Button>
  );
}
