import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { EscalationReview } from "@/components/escalations/escalation-review";
import { getQueryClient, HydrateClient, trpc } from "@/server/api/rsc";

export const metadata: Metadata = { title: "Review escalation" };

/** By name and code rather than instanceof, which fails when the module is bundled twice. */
function isNotFound(error: unknown): boolean {
  return error instanceof Error && error.name === "TRPCError" && (error as { code?: unknown }).code === "NOT_FOUND";
}

export default async function EscalationPage({ params }: { params: Promise<{ id: string }> }) {
  await connection();
  const { id } = await params;
  try {
    await getQueryClient().fetchQuery(trpc.escalation.get.queryOptions({ id }));
  } catch (error) {
    if (isNotFound(error)) notFound();
    throw error;
  }
  return (
    <HydrateClient>
      <EscalationReview escalationId={id} />
    </HydrateClient>
  );
}
