import type { JsonObject, JsonValue } from "@/server/engine";
import type { Db } from "@/server/persistence/db";
import { notFound } from "../errors";

/** The review queue shows at most this many open questions, the oldest deadline first. */
export const MAX_LISTED_QUESTIONS = 200;

export interface PendingQuestion {
  readonly callId: string;
  readonly runId: string;
  readonly workflow: string | null;
  readonly stepName: string;
  readonly tool: string;
  readonly question: string;
  /** Since when the run waits for the answer. */
  readonly createdAt: Date;
  /** When the call times out (the model then sees a timeout), by the database's clock. */
  readonly deadlineAt: Date;
}

export interface PersonCall extends PendingQuestion {
  readonly status: "waiting" | "reported" | "timed_out" | "cancelled";
  readonly specification: string;
  /** What the model sent with the question (its input to the tool). */
  readonly input: JsonValue;
  /** The answer form's JSON Schema (null: any JSON object). */
  readonly answerSchema: JsonObject | null;
  readonly answer: JsonValue | null;
  readonly answeredBy: string | null;
  readonly answeredAt: Date | null;
}

const RUN = { select: { specification: true, workflowVersion: { select: { workflow: { select: { name: true } } } } } } as const;

function asObject(value: unknown): JsonObject | null {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as JsonObject) : null;
}

type QuestionRow = {
  id: string;
  runId: string;
  stepName: string;
  tool: string;
  question: string | null;
  createdAt: Date;
  deadlineAt: Date;
  run: { workflowVersion: { workflow: { name: string } } | null };
};

function questionOf(row: QuestionRow): PendingQuestion {
  return {
    callId: row.id,
    runId: row.runId,
    workflow: row.run.workflowVersion?.workflow.name ?? null,
    stepName: row.stepName,
    tool: row.tool,
    question: row.question ?? "",
    createdAt: row.createdAt,
    deadlineAt: row.deadlineAt,
  };
}

/** Questions tools asked people that no one has answered yet (kind person, status waiting). */
export async function listPendingPersonCalls(db: Db): Promise<{ items: PendingQuestion[]; total: number }> {
  const where = { kind: "person", status: "waiting" } as const;
  const [rows, total] = await Promise.all([
    db.toolWait.findMany({ where, orderBy: [{ deadlineAt: "asc" }, { createdAt: "asc" }], take: MAX_LISTED_QUESTIONS, include: { run: RUN } }),
    db.toolWait.count({ where }),
  ]);
  return { items: rows.map(questionOf), total };
}

/** One person's question with its form and, once answered, who answered what and when. */
export async function getPersonCall(db: Db, callId: string): Promise<PersonCall> {
  const row = await db.toolWait.findUnique({ where: { id: callId }, include: { run: RUN } });
  if (!row || row.kind !== "person") throw notFound("Question", callId);
  return {
    ...questionOf(row),
    status: row.status,
    specification: row.run.specification,
    input: row.input as JsonValue,
    answerSchema: asObject(row.resultSchema),
    answer: (row.result as JsonValue | null) ?? null,
    answeredBy: row.reportedBy,
    answeredAt: row.reportedAt,
  };
}
