import { connection } from "next/server";
import { Suspense } from "react";
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
  await Promise.all([
    queryClient.fetchQuery(trpc.workflow.list.queryOptions()),
    queryClient.fetchQuery(trpc.run.listRecent.queryOptions({ limit: RECENT_RUN_LIMIT })),
  ]);

  return (
    <HydrateClient>
      <div className="space-y-8">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Overview</h1>
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
