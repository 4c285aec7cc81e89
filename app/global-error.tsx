"use client";

import "./globals.css";

/**
 * Replaces the root layout when the layout itself fails, so it brings its own <html>. Like
 * app/error.tsx it shows no message or stack, only the digest that matches the server log.
 */
export default function GlobalError({ error, retry }: { error: unknown; retry: () => void }) {
  const digest = error instanceof Error && "digest" in error && typeof error.digest === "string" ? error.digest : null;
  return (
    <html lang="en">
      <body className="min-h-screen bg-slate-50 p-8 font-sans text-slate-900">
        <title>Something went wrong · Dualstate</title>
        <h1 className="text-xl font-semibold">Something went wrong</h1>
        <p className="mt-2 text-sm text-slate-600">Dualstate could not be shown. The details are in the server log.</p>
        {digest && <p className="mt-1 font-mono text-xs text-slate-500">Reference: {digest}</p>}
        <button type="button" onClick={() => retry()} className="mt-6 rounded-md bg-slate-900 px-3 py-1.5 text-sm text-white">
          Try again
        </button>
      </body>
    </html>
  );
}
