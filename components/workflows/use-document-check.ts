"use client";

import { useEffect, useState } from "react";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";
import { documentVerdict, type CheckAnswer, type DocumentCheck, type DocumentVerdict } from "./document-verdict";

const CHECK_AFTER_MS = 300;

export interface DocumentCheckState {
  readonly verdict: DocumentVerdict;
  /** The last machine the server drew, possibly for an earlier text: a preview, never a verdict. */
  readonly lastMachine: DocumentCheck["machine"];
}

/**
 * Checks the document on the server once typing pauses (CHECK_AFTER_MS), as POST (see
 * QUERIES_SENT_AS_POST in trpc-provider.tsx), and says what is known about the text on screen.
 */
export function useDocumentCheck(document: string, name?: string): DocumentCheckState {
  const trpc = useTRPC();
  const [sent, setSent] = useState(document);
  useEffect(() => {
    if (document === sent) return;
    const timer = setTimeout(() => setSent(document), CHECK_AFTER_MS);
    return () => clearTimeout(timer);
  }, [document, sent]);
  const check = useQuery({
    ...trpc.workflow.check.queryOptions({ document: sent, ...(name ? { name } : {}) }),
    enabled: sent !== "",
    // A failed check is shown at once; the next edit checks again.
    retry: false,
    placeholderData: keepPreviousData,
  });
  let answer: CheckAnswer | null = null;
  if (check.isError) answer = { text: sent, error: check.error.message };
  else if (check.isSuccess && !check.isPlaceholderData) answer = { text: sent, check: check.data };
  return { verdict: documentVerdict(document, answer), lastMachine: check.data?.machine ?? null };
}
