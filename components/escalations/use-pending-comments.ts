"use client";

import { useCallback, useEffect, useState } from "react";
import { parsePendingComments, pendingCommentsKey, type PendingComment } from "./pending-comments";

export interface PendingComments {
  readonly comments: readonly PendingComment[];
  add(comment: Omit<PendingComment, "id">): void;
  remove(id: string): void;
  /** After the decision that submitted them. */
  clear(): void;
}

/**
 * A reviewer's draft line comments on one escalated artifact, kept in localStorage so a reload
 * (or a crash) does not lose them until they are submitted with a decision. `open`: the
 * escalation still waits for a decision.
 */
export function usePendingComments(escalationId: string, contentHash: string, open: boolean): PendingComments {
  const key = pendingCommentsKey(escalationId, contentHash);
  const [comments, setComments] = useState<readonly PendingComment[]>([]);
  // Read after mounting: the server render has no storage, and the first client render must match it.
  // Once the escalation is closed (by anyone) its drafts can go with no decision: they are dropped.
  useEffect(() => {
    if (open) setComments(parsePendingComments(window.localStorage.getItem(key)));
    else {
      window.localStorage.removeItem(key);
      setComments([]);
    }
  }, [key, open]);
  const save = useCallback(
    (next: readonly PendingComment[]) => {
      setComments(next);
      if (next.length === 0) window.localStorage.removeItem(key);
      else window.localStorage.setItem(key, JSON.stringify(next));
    },
    [key],
  );
  return {
    comments,
    // Not crypto.randomUUID: it exists only in secure contexts, and a dashboard may be served over plain http.
    add: (comment) => save([...comments, { ...comment, id: `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}` }]),
    remove: (id) => save(comments.filter((comment) => comment.id !== id)),
    clear: () => save([]),
  };
}
