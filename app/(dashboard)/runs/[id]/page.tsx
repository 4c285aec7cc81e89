import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { RunView } from "@/components/runs/run-view";
import { getQueryClient, HydrateClient, trpc } from "@/server/api/rsc";

export const metadata: Metadata = { title: "Run" };

/** By name and code rather than instanceof, which fails when the module is bundled twice. */
function isNotFound(error: unknown): boolean {
  return error instanceof Error && error.name === "TRPCError" && (error as { code?: unknown }).code === "NOT_FOUND";
}

export default async function RunPage({ params }: { params: Promise<{ id: string }> }) {
  // Rendered per request, never prerendered: there is no database at build time.
  await connection();
  const { id } = await params;
  try {
    // fetchQuery (not prefetchQuery): an unknown id becomes the not-found page, any other failure app/error.tsx.
    await getQueryClient().fetchQuery(trpc.run.get.queryOptions({ id }));
    // Rendered with the first paint too; a failure here is left to the client's own query.
    await getQueryClient().prefetchQuery(trpc.run.execution.queryOptions({ id }));
  } catch (error) {
    if (isNotFound(error)) notFound();
    throw error;
  }
  return (
    <HydrateClient>
      <RunView runId={id} />
    </HydrateClient>
  );
}
