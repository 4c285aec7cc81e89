/**
 * What a run's agent steps recorded, as cassette data (generators/replay/cassette.ts): each agent
 * step's model turns in order, and the results its person and external tools were given. The
 * run's ledger is the source: every model turn is recorded under the agent's policy key
 * `<step>[#visit]/attempt-<n>/<position>/model`, every tool's result under its own call's key.
 */
import type { Db } from "../../persistence/db";
import type { Cassette, CassetteAttempt } from "../../generators/replay/cassette";
import { readRecordedReply } from "../../generators/chat/recorded-reply";
import type { JsonObject } from "../../engine";

/** `result:implement#2/attempt-3/5/model` → step "implement". Only the agent's keys carry a position before `/model`. */
const AGENT_TURN_KEY = /^result:(.+?)(?:#\d+)?\/attempt-\d+\/\d+\/model$/;

const isObject = (value: unknown): value is JsonObject => typeof value === "object" && value !== null && !Array.isArray(value);

/** Each agent step's turns, in the order the run made them; a failed model call is no turn a cassette can hold. */
export async function agentTurns(db: Db, runId: string): Promise<Map<string, CassetteAttempt[]>> {
  const rows = await db.ledgerEntry.findMany({
    where: { runId, actor: "model", type: "action_result", callKey: { endsWith: "/model" } },
    select: { callKey: true, payload: true },
    orderBy: { seq: "asc" },
  });
  const byStep = new Map<string, CassetteAttempt[]>();
  for (const row of rows) {
    const step = AGENT_TURN_KEY.exec(row.callKey ?? "")?.[1];
    if (step === undefined || !isObject(row.payload) || row.payload.error === true) continue;
    const reply = readRecordedReply(row.payload);
    const entry: CassetteAttempt =
      reply.toolCalls.length === 0
        ? reply.content
        : { ...(reply.content ? { content: reply.content } : {}), tool_calls: reply.toolCalls.map((call) => ({ name: call.name, arguments: call.arguments })) };
    byStep.set(step, [...(byStep.get(step) ?? []), entry]);
  }
  return byStep;
}

/**
 * The results the run's person and external tools (`waitingTools`, from its workflow's `tools:`)
 * returned, per tool, entry N for attempt N, read from the ledger: a live run's reported results
 * and a replayed run's recorded ones are both there, under `result:<step>/attempt-<n>/<position>/<tool>`.
 * One result per attempt (the first); an attempt that did not call the tool takes the next
 * attempt's, which it never reads. Timeouts and other errors are left out: a replay that lacks a
 * result waits.
 */
export async function reportedResults(db: Db, runId: string, waitingTools: readonly string[]): Promise<NonNullable<Cassette["reports"]>> {
  if (waitingTools.length === 0) return {};
  const rows = await db.ledgerEntry.findMany({
    where: { runId, type: "action_result", OR: waitingTools.map((tool) => ({ callKey: { endsWith: `/${tool}` } })) },
    select: { callKey: true, payload: true },
    orderBy: { seq: "asc" },
  });
  const byTool = new Map<string, Map<number, Record<string, unknown>>>();
  for (const row of rows) {
    const match = /^result:.+\/attempt-(\d+)\/\d+\/([A-Za-z0-9_-]+)$/.exec(row.callKey ?? "");
    if (!match || !waitingTools.includes(match[2]!) || !isObject(row.payload) || row.payload.error === true) continue;
    const [attempt, tool] = [Number(match[1]), match[2]!];
    const attempts = byTool.get(tool) ?? new Map<number, Record<string, unknown>>();
    if (!attempts.has(attempt)) attempts.set(attempt, row.payload);
    byTool.set(tool, attempts);
  }
  const reports: NonNullable<Cassette["reports"]> = {};
  for (const [tool, attempts] of byTool) {
    const last = Math.max(...attempts.keys());
    const results: Record<string, unknown>[] = [];
    for (let attempt = last; attempt >= 1; attempt -= 1) results[attempt - 1] = attempts.get(attempt) ?? results[attempt]!;
    reports[tool] = results;
  }
  return reports;
}

/** The sub-runs the run's workflow tools started, oldest first. */
export async function subRunIds(db: Db, runId: string): Promise<string[]> {
  const waits = await db.toolWait.findMany({ where: { runId, kind: "workflow", childRunId: { not: null } }, select: { childRunId: true }, orderBy: { createdAt: "asc" } });
  return waits.flatMap((wait) => (wait.childRunId ? [wait.childRunId] : []));
}
