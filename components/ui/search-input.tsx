"use client";

import { useEffect, useRef, useState } from "react";
import { fieldClass } from "./select";

const SETTLE_MS = 300;

/**
 * A search box that reports its text once typing pauses (and at once on Enter). It follows
 * `value` when that changes from outside (back/forward through the URL).
 */
export function SearchInput({ value, onSearch, label = "Search", hint, maxLength = 200 }: { value: string; onSearch: (text: string) => void; label?: string; hint?: string; maxLength?: number }) {
  const [text, setText] = useState(value);
  const [shown, setShown] = useState(value);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  // Adopt a value that changed outside (the URL), not the one this box just reported.
  if (value !== shown) {
    setShown(value);
    setText(value);
  }
  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
  }, []);

  function report(next: string) {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    if (next.trim() === value.trim()) return;
    setShown(next.trim());
    onSearch(next.trim());
  }

  return (
    <label className="flex min-w-48 flex-1 flex-col gap-1 text-sm font-medium sm:max-w-xs">
      {label}
      <input
        type="search"
        value={text}
        maxLength={maxLength}
        placeholder={hint}
        onChange={(event) => {
          const next = event.target.value;
          setText(next);
          if (timer.current) clearTimeout(timer.current);
          timer.current = setTimeout(() => report(next), SETTLE_MS);
        }}
        onKeyDown={(event) => {
          if (event.key === "Enter") {
            event.preventDefault();
            report(text);
          }
        }}
        className={fieldClass}
      />
    </label>
  );
}
