import { can } from "@/server/auth/permissions";
import { answerPersonCall } from "@/server/services/tool-calls/answer-person-call";
import { getPersonCall, listPendingPersonCalls } from "@/server/services/tool-calls/person-calls";
import { reportToolCall } from "@/server/services/tool-calls/report-tool-call";
import { answerQuestionInput, getQuestionInput, reportToolCallInput } from "../schemas/tool-call";
import { createTRPCRouter, permittedProcedure, viewerProcedure } from "../trpc";

/**
 * Tools that wait (issue 18): an outside system reports an external tool's result; a person
 * answers a tool's question from the review queue. A duplicate or late report is not an error:
 * the outcome says `applied: false` and why.
 */
export const toolCallRouter = createTRPCRouter({
  report: permittedProcedure("report_tool_result").input(reportToolCallInput).mutation(({ ctx, input }) => reportToolCall(ctx.db, input, ctx.actor)),
  /** Open questions for the review queue, the oldest deadline first. */
  questions: viewerProcedure.query(({ ctx }) => listPendingPersonCalls(ctx.db)),
  question: viewerProcedure.input(getQuestionInput).query(async ({ ctx, input }) => ({ ...(await getPersonCall(ctx.db, input.callId)), canAnswer: can(ctx.actor.role, "answer_question") })),
  answer: permittedProcedure("answer_question").input(answerQuestionInput).mutation(({ ctx, input }) => answerPersonCall(ctx.db, input, ctx.actor)),
});
