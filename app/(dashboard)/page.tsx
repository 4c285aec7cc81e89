import { cookies } from "next/headers";
import { connection } from "next/server";
import { Suspense } from "react";
import { FirstRunGuide } from "@/components/dashboard/first-run-guide";
import { FIRST_RUN_GUIDE_COOKIE, FIRST_RUN_GUIDE_HIDDEN } from "@/components/dashboard/first-run-guide-cookie";
import { RecentRunList } from "@/components/dashboard/recent-run-list";
import { SectionCard } from "@/components/dashboard/section-card";
import { WorkflowList } from "@/components/dashboard/workflow-list";
import { NewWorkflowForm } from "@/components/workflows/new-workflow-form";
import { getQueryClient, HydrateClient, trpc } from "@/server/api/rsc";

const RECENT_RUN_LIMIT = 20;

export default async function OverviewPage() {
  // Rendered per request, never prerendered: there is no database at build time.
  await connection();
  // fetchQuery (not prefetchQuery) so a failure reaches app/error.tsx instead of an empty list.
  const queryClient = getQueryClient();
  const guideHidden = (await cookies()).get(FIRST_RUN_GUIDE_COOKIE)?.value === FIRST_RUN_GUIDE_HIDDEN;
  await Promise.all([
    queryClient.fetchQuery(trpc.workflow.list.queryOptions()),
    queryClient.fetchQuery(trpc.run.listRecent.queryOptions({ limit: RECENT_RUN_LIMIT })),
    guideHidden ? null : queryClient.fetchQuery(trpc.overview.firstRunGuide.queryOptions()),
  ]);

  return (
    <HydrateClient>
      <div className="space-y-8">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Overview</h1>
        {!guideHidden && <FirstRunGuide />}
        <SectionCard id="workflows" title="Workflows">
          {/* The list reads its search and page from the URL (useSearchParams). */}
          <Suspense>
            <WorkflowList />
          </Suspense>
          <NewWorkflowForm />
        </SectionCard>
        <SectionCard id="runs" title="Recent runs">
          <RecentRunList limit={RECENT_RUN_LIMIT} />
        </SectionCard>
      </div>
    </HydrateClient>
  );
}
