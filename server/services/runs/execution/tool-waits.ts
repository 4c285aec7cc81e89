import type { Db, Prisma } from "@/server/persistence/db";
import { previewJson, reportCommand, resultExample, type JsonPreview } from "./json-preview";

/** A run waits on one model turn's calls at a time; a long run's history is cut to the newest. */
export const TOOL_WAIT_LIMIT = 100;

const toolWaitSelect = {
  id: true,
  stepName: true,
  attempt: true,
  tool: true,
  kind: true,
  input: true,
  question: true,
  resultSchema: true,
  workflow: true,
  childRunId: true,
  status: true,
  deadlineAt: true,
  result: true,
  reportedBy: true,
  reportedAt: true,
  createdAt: true,
} satisfies Prisma.ToolWaitSelect;

export interface RunToolWait {
  /** The call id a report names. */
  readonly callId: string;
  readonly stepName: string;
  readonly attempt: number;
  readonly tool: string;
  /** person, workflow or external. */
  readonly kind: string;
  readonly status: "waiting" | "reported" | "timed_out" | "cancelled";
  readonly since: Date;
  readonly deadlineAt: Date;
  /** A person's question. */
  readonly question: string | null;
  /** A workflow tool's sub-workflow and the sub-run it started. */
  readonly workflow: string | null;
  readonly childRunId: string | null;
  readonly reportedBy: string | null;
  readonly reportedAt: Date | null;
  readonly input: JsonPreview;
  readonly resultSchema: JsonPreview | null;
  readonly result: JsonPreview | null;
  /** For an external call still waiting: the command that reports its result. */
  readonly reportCommand: string | null;
}

export interface RunToolWaits {
  /** The newest TOOL_WAIT_LIMIT calls at most, oldest first. */
  readonly items: readonly RunToolWait[];
  readonly total: number;
  /** How many calls still wait (all of them, not only those in `items`). */
  readonly waiting: number;
}

/** A model writes the question: the page and the CLI show this much of it (the review queue's form shows it whole). */
const MAX_QUESTION_CHARS = 4_000;

type Row = Prisma.ToolWaitGetPayload<{ select: typeof toolWaitSelect }>;

function toToolWait(runId: string, row: Row): RunToolWait {
  return {
    callId: row.id,
    stepName: row.stepName,
    attempt: row.attempt,
    tool: row.tool,
    kind: row.kind,
    status: row.status,
    since: row.createdAt,
    deadlineAt: row.deadlineAt,
    question: row.question !== null && row.question.length > MAX_QUESTION_CHARS ? `${row.question.slice(0, MAX_QUESTION_CHARS)}…` : row.question,
    workflow: row.workflow,
    childRunId: row.childRunId,
    reportedBy: row.reportedBy,
    reportedAt: row.reportedAt,
    input: previewJson(row.input),
    resultSchema: row.resultSchema === null ? null : previewJson(row.resultSchema),
    result: row.result === null ? null : previewJson(row.result),
    reportCommand: row.kind === "external" && row.status === "waiting" ? reportCommand(runId, row.id, resultExample(row.resultSchema)) : null,
  };
}

/** The run's tool calls that waited or wait for a person, a sub-run or another system. */
export async function listToolWaits(db: Db, runId: string, limit = TOOL_WAIT_LIMIT): Promise<RunToolWaits> {
  const [rows, total, waiting] = await Promise.all([
    // id breaks ties between calls of one model turn, written in the same statement.
    db.toolWait.findMany({ where: { runId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: limit, select: toolWaitSelect }),
    db.toolWait.count({ where: { runId } }),
    db.toolWait.count({ where: { runId, status: "waiting" } }),
  ]);
  return { items: rows.reverse().map((row) => toToolWait(runId, row)), total, waiting };
}
