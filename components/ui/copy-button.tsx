"use client";

import { useEffect, useState } from "react";
import { Button } from "./button";

const FEEDBACK_MS = 2000;

/** Copies through a hidden text area where the Clipboard API is missing (plain-HTTP pages, older browsers). */
function copyByCommand(text: string): boolean {
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.appendChild(area);
  area.select();
  try {
    return document.execCommand("copy");
  } finally {
    area.remove();
  }
}

/** A button that copies `text` and says "Copied" (or that it could not) for a moment. */
export function CopyButton({ text, label = "Copy" }: { text: string; label?: string }) {
  const [outcome, setOutcome] = useState<"copied" | "failed" | null>(null);
  useEffect(() => {
    if (!outcome) return;
    const timer = setTimeout(() => setOutcome(null), FEEDBACK_MS);
    return () => clearTimeout(timer);
  }, [outcome]);

  async function copy() {
    try {
      if (navigator.clipboard && window.isSecureContext) await navigator.clipboard.writeText(text);
      else if (!copyByCommand(text)) throw new Error("copy command refused");
      setOutcome("copied");
    } catch {
      setOutcome(copyByCommand(text) ? "copied" : "failed");
    }
  }

  return (
    <span className="inline-flex items-center gap-2">
      <Button onClick={() => void copy()}>{label}</Button>
      <span role="status" className="text-sm text-slate-600">
        {outcome === "copied" ? "Copied" : outcome === "failed" ? "Could not copy: select the text and copy it by hand" : ""}
      </span>
    </span>
  );
}
