/**
 * What a run's llm_judge guards answered, as a cassette's `judges` (generators/replay/cassette.ts):
 * per step, entry N for attempt N. The ledger is the source: a judge's answer is recorded under
 * its guard's key `<step>[#visit]/attempt-<n>/…/judge`, a live judge's and a replayed one's alike.
 */
import type { Db } from "../../persistence/db";
import type { JudgeVerdict } from "../../generators/replay/cassette";
import { parseJudgeAnswer } from "../../guards/llm-judge/parse-judge-answer";

/** `result:implement#2/attempt-3/guard/1/judge` → step "implement", attempt 3. */
const JUDGE_KEY = /^result:(.+?)(?:#\d+)?\/attempt-(\d+)\/.*\/judge$/;
/** Attempts past this are not a run a cassette needs to reproduce (retry budgets are far smaller). */
const MAX_ATTEMPTS = 100;

/**
 * Each step's verdicts by attempt. Where one attempt asked several judges, the failing one is
 * kept (replay gives every judge of the step that verdict, so the step ends as it did). An attempt
 * whose judge was never asked (an earlier guard failed first) keeps its place with a pass that
 * replay never reads. An unreachable judge is no verdict: replaying without it fails the step.
 */
export async function judgeVerdicts(db: Db, runId: string): Promise<Record<string, JudgeVerdict[]>> {
  const rows = await db.ledgerEntry.findMany({
    where: { runId, type: "action_result", callKey: { endsWith: "/judge" } },
    select: { callKey: true, payload: true },
    orderBy: { seq: "asc" },
  });
  const byStep = new Map<string, Map<number, JudgeVerdict>>();
  for (const row of rows) {
    const match = JUDGE_KEY.exec(row.callKey ?? "");
    const payload = row.payload as { error?: unknown; content?: unknown } | null;
    if (!match || !payload || payload.error === true || typeof payload.content !== "string") continue;
    const attempt = Number(match[2]);
    if (attempt < 1 || attempt > MAX_ATTEMPTS) continue;
    const verdict = parseJudgeAnswer(payload.content);
    const attempts = byStep.get(match[1]!) ?? new Map<number, JudgeVerdict>();
    const earlier = attempts.get(attempt);
    if (!earlier || (earlier.passed && !verdict.passed)) attempts.set(attempt, { passed: verdict.passed, feedback: verdict.feedback });
    byStep.set(match[1]!, attempts);
  }
  const judges: Record<string, JudgeVerdict[]> = {};
  for (const [step, attempts] of byStep) {
    const last = Math.max(...attempts.keys());
    judges[step] = Array.from({ length: last }, (_, index) => attempts.get(index + 1) ?? { passed: true, feedback: "" });
  }
  return judges;
}
