import type { Metadata } from "next";
import { headers } from "next/headers";
import { Suspense } from "react";
import { EscalationQueue } from "@/components/escalations/escalation-queue";
import { QuestionList } from "@/components/questions/question-list";
import { currentActor } from "@/server/auth/app-auth";
import { canDecide } from "@/server/services/escalations/decision-kinds";

export const metadata: Metadata = { title: "Escalations" };

export default async function EscalationsPage() {
  // The layout already redirected anonymous visitors; the role only decides which controls show.
  const actor = await currentActor(await headers());
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Escalations</h1>
        <p className="text-sm text-slate-600">Runs stopped by a fatal guard verdict wait here for a person to approve or reject them, and tools&apos; questions for a person to answer.</p>
      </div>
      <QuestionList />
      <h2 className="text-lg font-semibold text-slate-900">Escalated runs</h2>
      {/* The queue reads its search and filters from the URL (useSearchParams). */}
      <Suspense>
        <EscalationQueue viewer={{ email: actor?.email ?? "", mayDecide: canDecide(actor?.role) }} />
      </Suspense>
    </div>
  );
}
