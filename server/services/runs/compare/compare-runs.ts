import type { Db } from "@/server/persistence/db";
import { lineDiff, type DiffLine } from "../../escalations/diff-lines";
import { getRunDetail, type RunAttempt, type RunDetail } from "../get-run-detail";
import { pairAttempts, type AttemptPair } from "./pair-attempts";

/** What the comparison shows of each run. */
export type ComparedRun = Pick<RunDetail, "id" | "status" | "workflow" | "specification" | "createdAt" | "finishedAt" | "finalResult" | "attemptCount" | "forkedFrom" | "cancellation">;

export interface ComparedAttempt extends AttemptPair<RunAttempt> {
  /** Both attempts produced the same content (by hash). */
  readonly sameContent: boolean;
  /** Line diff from a's content to b's, when both runs made the attempt and it differs. */
  readonly diff: DiffLine[] | null;
}

export interface RunComparison {
  readonly a: ComparedRun;
  readonly b: ComparedRun;
  readonly attempts: ComparedAttempt[];
}

function compared(run: RunDetail): ComparedRun {
  const { id, status, workflow, specification, createdAt, finishedAt, finalResult, attemptCount, forkedFrom, cancellation } = run;
  return { id, status, workflow, specification, createdAt, finishedAt, finalResult, attemptCount, forkedFrom, cancellation };
}

/**
 * Two runs side by side: their heads and results, and their attempts lined up step by step with
 * verdicts, feedback and a diff of the content of corresponding attempts.
 * @throws ServiceError NOT_FOUND naming the run that does not exist.
 */
export async function compareRuns(db: Db, input: { a: string; b: string }): Promise<RunComparison> {
  const [a, b] = await Promise.all([getRunDetail(db, { id: input.a }), getRunDetail(db, { id: input.b })]);
  const attempts = pairAttempts(a.attempts, b.attempts).map((pair): ComparedAttempt => {
    const sameContent = pair.a !== null && pair.b !== null && pair.a.contentHash === pair.b.contentHash;
    return { ...pair, sameContent, diff: pair.a && pair.b && !sameContent ? lineDiff(pair.a.content, pair.b.content) : null };
  });
  return { a: compared(a), b: compared(b), attempts };
}
