"use client";

import Link from "next/link";
import { ProblemPanel } from "@/components/dashboard/problem-panel";

/**
 * Shown when a page fails. It never renders the error's message or stack: in production a
 * server error only carries a digest, which matches the entry in the server log.
 */
export default function ErrorPage({ error, retry }: { error: unknown; retry: () => void }) {
  const digest = error instanceof Error && "digest" in error && typeof error.digest === "string" ? error.digest : null;
  return (
    <ProblemPanel
      title="Something went wrong"
      actions={
        <>
          <button
            type="button"
            onClick={() => retry()}
            className="rounded-md bg-slate-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-slate-700"
          >
            Try again
          </button>
          <Link href="/" className="rounded-md px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-100">
            Back to the overview
          </Link>
        </>
      }
    >
      <p>This page could not be shown. The details are in the server log.</p>
      {digest && <p className="mt-1 font-mono text-xs text-slate-500">Reference: {digest}</p>}
    </ProblemPanel>
  );
}
