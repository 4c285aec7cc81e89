import type { Metadata } from "next";
import { authSecret } from "@/server/auth/auth-secret";
import { getEnv } from "@/server/env";
import { getDb } from "@/server/persistence/db";
import { verifiedDecidedQuery, type DecidedFields } from "@/server/services/decision-links/decided-page-query";

export const metadata: Metadata = { title: "Decision · Dualstate" };

/**
 * Where a confirmed (or refused) one-click decision lands; it shows what the decision route said,
 * and nothing from an address the route did not sign (decided-page-query.ts).
 */
export default async function DecidedPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const db = getDb();
  const said = verifiedDecidedQuery(await authSecret(db, getEnv().DUALSTATE_AUTH_SECRET), await searchParams) ?? {};
  const text = (name: keyof DecidedFields) => (said[name] ?? "").slice(0, 1_000);
  const status = text("status");
  const escalation = text("escalation");
  const decided = status === "approved" || status === "rejected";
  // A vote under a quorum that others must still join (server/review-policy/quorum.ts).
  const voted = status === "pending";
  return (
    <main className="mx-auto max-w-2xl px-6 py-12">
      <h1 className="text-xl font-semibold text-slate-900">{decided ? `Escalation ${status}` : voted ? "Your vote is recorded" : "Not decided"}</h1>
      <p data-testid="decision-outcome" className="mt-3 text-slate-700">
        {decided
          ? `Your decision is recorded${text("run") ? `; run ${text("run")} goes on from it` : ""}.`
          : voted
            ? `The escalation waits for more reviewers: ${text("votes") || "more votes are needed"}.`
            : text("reason") || "Nothing was decided."}
      </p>
      {decided && text("votes") ? <p className="mt-2 text-sm text-slate-600">Votes: {text("votes")}</p> : null}
      {/^[\w-]{1,100}$/.test(escalation) ? (
        <p className="mt-4">
          <a className="text-sky-700 underline" href={`/escalations/${escalation}`}>Open the escalation</a>
        </p>
      ) : null}
    </main>
  );
}
