import type { Metadata } from "next";
import { headers } from "next/headers";
import { connection } from "next/server";
import { CodeBlock } from "@/components/runs/code-block";
import { currentActor } from "@/server/auth/app-auth";
import { authSecret } from "@/server/auth/auth-secret";
import { getEnv } from "@/server/env";
import { getDb } from "@/server/persistence/db";
import { openDecisionLink } from "@/server/services/decision-links/open-decision-link";

export const metadata: Metadata = { title: "Confirm decision · Dualstate", referrer: "no-referrer" };

/**
 * Where an email's approve or reject link lands. Opening it decides nothing (mail scanners and
 * link previews follow links): it shows what is being decided, the code included, and a button
 * that posts the decision. No session is needed: the signed link names its one recipient.
 */
export default async function ConfirmDecisionPage({ params }: { params: Promise<{ token: string }> }) {
  await connection();
  const { token } = await params;
  const db = getDb();
  const actor = await currentActor(await headers()).catch(() => null);
  const opened = await openDecisionLink(db, await authSecret(db, getEnv().DUALSTATE_AUTH_SECRET), token, { signedInAs: actor?.email ?? null });

  if (!opened.ok) {
    return (
      <main className="mx-auto max-w-2xl px-6 py-12">
        <h1 className="text-xl font-semibold text-slate-900">This link cannot decide</h1>
        <p data-testid="link-refusal" className="mt-3 text-slate-700">{opened.reason}</p>
        {opened.escalationId ? (
          <p className="mt-4">
            <a className="text-sky-700 underline" href={`/escalations/${opened.escalationId}`}>Open the escalation</a>
          </p>
        ) : null}
      </main>
    );
  }
  const { escalation, decision } = opened;
  const approving = decision === "approve";
  return (
    <main className="mx-auto max-w-4xl px-6 py-10">
      <h1 className="text-xl font-semibold text-slate-900">{approving ? "Approve" : "Reject"} this {escalation.fatal ? "fatal " : ""}escalation?</h1>
      <p className="mt-2 text-sm text-slate-600">
        Workflow <strong>{escalation.workflow}</strong>, step <strong>{escalation.stepName}</strong>, guard <strong>{escalation.guardId}</strong>, run <code>{escalation.runId}</code>. Deciding as {opened.recipient}; this link works once, until {opened.expiresAt.toISOString().replace("T", " ").slice(0, 16)} UTC.
      </p>
      <h2 className="mt-6 text-sm font-semibold text-slate-900">The guard&apos;s feedback</h2>
      <pre data-testid="link-feedback" className="mt-2 whitespace-pre-wrap rounded-md bg-amber-50 p-3 text-sm text-amber-950">{escalation.feedback}</pre>
      <h2 className="mt-6 text-sm font-semibold text-slate-900">The code{approving && escalation.fatal ? " you are approving" : ""}</h2>
      <div className="mt-2">
        <CodeBlock code={escalation.content} language={escalation.language} markedLine={escalation.offendingLine} label="The escalated artifact" />
      </div>
      <form method="post" action="/api/decide" className="mt-6 flex flex-col gap-3">
        <input type="hidden" name="token" value={token} />
        <input type="hidden" name="contentHash" value={escalation.contentHash} />
        {approving ? null : (
          <label className="flex flex-col gap-1 text-sm text-slate-700">
            Feedback for the next attempt (optional; without it the step is rejected as it is)
            <textarea name="comment" maxLength={10_000} rows={4} className="rounded-md border border-slate-300 p-2 font-mono text-sm" />
          </label>
        )}
        <div className="flex gap-3">
          <button type="submit" className={`rounded-md px-4 py-2 text-sm font-medium text-white ${approving ? "bg-emerald-700 hover:bg-emerald-800" : "bg-red-700 hover:bg-red-800"}`}>
            {approving ? "Confirm approve" : "Confirm reject"}
          </button>
          <a href={`/escalations/${escalation.id}`} className="rounded-md border border-slate-300 px-4 py-2 text-sm text-slate-700">
            Open in the review queue instead
          </a>
        </div>
      </form>
    </main>
  );
}
