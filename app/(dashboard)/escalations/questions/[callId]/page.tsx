import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { QuestionPanel } from "@/components/questions/question-panel";
import { getQueryClient, HydrateClient, trpc } from "@/server/api/rsc";

export const metadata: Metadata = { title: "Answer a question" };

/** By name and code rather than instanceof, which fails when the module is bundled twice. */
function isNotFound(error: unknown): boolean {
  return error instanceof Error && error.name === "TRPCError" && (error as { code?: unknown }).code === "NOT_FOUND";
}

export default async function QuestionPage({ params }: { params: Promise<{ callId: string }> }) {
  await connection();
  const { callId } = await params;
  try {
    await getQueryClient().fetchQuery(trpc.toolCall.question.queryOptions({ callId }));
  } catch (error) {
    if (isNotFound(error)) notFound();
    throw error;
  }
  return (
    <HydrateClient>
      <QuestionPanel callId={callId} />
    </HydrateClient>
  );
}
