"use client";

import { useEffect, useRef } from "react";
import { isTypingTarget } from "./queue-keys";
import { reviewCommand, type ReviewCommand, type ReviewKeyContext } from "./review-keys";

/**
 * Listens for the review page's shortcuts (review-keys.ts) while no dialog is open and the key
 * is not typed into a field, and hands each command to `run`.
 */
export function useReviewShortcuts(context: ReviewKeyContext & { dialogOpen: boolean }, run: (command: ReviewCommand) => void) {
  // The latest context and handler, read at key time, so the listener is added once.
  const latest = useRef({ context, run });
  useEffect(() => {
    latest.current = { context, run };
  });
  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      const { context: now, run: handle } = latest.current;
      if (now.dialogOpen || isTypingTarget(event.target)) return;
      const command = reviewCommand(event.key, event.metaKey || event.ctrlKey || event.altKey, now);
      if (!command) return;
      event.preventDefault();
      handle(command);
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}
