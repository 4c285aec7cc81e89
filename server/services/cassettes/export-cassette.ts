import type { Db } from "../../persistence/db";
import { CASSETTE_FORMAT, type Cassette, type CassetteAttempt } from "../../generators/replay/cassette";
import { agentTurns, reportedResults, subRunIds } from "./agent-turns";
import { judgeVerdicts } from "./judge-verdicts";
import { notFound } from "../errors";

/**
 * A run's answers as a cassette: every attempt's content, per step in attempt order (an agent
 * step's model turns, with their tool calls, and the results its person and external tools were
 * reported; its sub-runs' steps too), so replaying it through the same steps reproduces the run
 * without a model. Steps appear in the
 * order they first produced an artifact (createdAt, then name when two share a millisecond);
 * the replay generator looks steps up by name, so that order is only for people reading it.
 * @throws ServiceError NOT_FOUND naming the id when there is no such run.
 */
export async function exportCassette(db: Db, runId: string): Promise<Cassette> {
  const run = await db.run.findUnique({
    where: { id: runId },
    select: {
      id: true,
      specification: true,
      status: true,
      createdAt: true,
      startedAt: true,
      workflowVersion: { select: { version: true, workflow: { select: { name: true } } } },
    },
  });
  if (!run) throw notFound("Run", runId);

  const recorded = await recordedAnswers(db, runId, 0);
  return {
    format: CASSETTE_FORMAT,
    run: {
      runId: run.id,
      workflow: run.workflowVersion?.workflow.name ?? null,
      workflowVersion: run.workflowVersion?.version ?? null,
      specification: run.specification,
      status: run.status,
      recordedAt: (run.startedAt ?? run.createdAt).toISOString(),
    },
    steps: Object.fromEntries(recorded.steps),
    ...(Object.keys(recorded.reports).length > 0 ? { reports: recorded.reports } : {}),
    ...(Object.keys(recorded.judges).length > 0 ? { judges: recorded.judges } : {}),
  };
}

/** The person and external tools the run's workflow version declares. */
async function waitingToolsOf(db: Db, runId: string): Promise<string[]> {
  const run = await db.run.findUnique({ where: { id: runId }, select: { workflowVersion: { select: { definition: true } } } });
  const tools = (run?.workflowVersion?.definition as { tools?: Record<string, { kind?: unknown }> } | undefined)?.tools ?? {};
  return Object.entries(tools).flatMap(([name, tool]) => (tool.kind === "person" || tool.kind === "external" ? [name] : []));
}

/** Sub-runs nest at most this deep (the durable store's limit). */
const MAX_SUB_RUN_DEPTH = 8;

interface RecordedAnswers {
  readonly steps: [string, CassetteAttempt[]][];
  readonly reports: NonNullable<Cassette["reports"]>;
  readonly judges: NonNullable<Cassette["judges"]>;
}

/**
 * The run's answers per step: an agent step's model turns, any other step's attempt artifacts;
 * then its sub-runs' (a replayed sub-run answers from its parent's cassette), a name the run
 * already has keeping the run's own answers.
 */
async function recordedAnswers(db: Db, runId: string, depth: number): Promise<RecordedAnswers> {
  // Everything a model answered: action pair attempts and llm/transition answers; a code step has no model.
  const artifacts = await db.artifact.findMany({
    where: { runId, stepKind: { not: "code" } },
    select: { stepName: true, attempt: true, content: true, createdAt: true },
    orderBy: [{ stepName: "asc" }, { attempt: "asc" }],
  });
  const byStep = new Map<string, { first: number; contents: string[] }>();
  for (const artifact of artifacts) {
    const step = byStep.get(artifact.stepName) ?? { first: artifact.createdAt.getTime(), contents: [] };
    step.first = Math.min(step.first, artifact.createdAt.getTime());
    step.contents.push(artifact.content);
    byStep.set(artifact.stepName, step);
  }
  const ordered = [...byStep].sort(([nameA, a], [nameB, b]) => a.first - b.first || (nameA < nameB ? -1 : nameA > nameB ? 1 : 0));
  const turns = await agentTurns(db, runId);
  const steps: [string, CassetteAttempt[]][] = ordered.map(([name, step]) => [name, turns.get(name) ?? step.contents]);
  // An agent step that produced no artifact (its attempt waits, or failed) still has its turns.
  for (const [name, entries] of turns) if (!byStep.has(name)) steps.push([name, entries]);
  const reports = await reportedResults(db, runId, await waitingToolsOf(db, runId));
  const judges = await judgeVerdicts(db, runId);

  if (depth < MAX_SUB_RUN_DEPTH) {
    for (const child of await subRunIds(db, runId)) {
      const sub = await recordedAnswers(db, child, depth + 1);
      for (const [name, entries] of sub.steps) if (!steps.some(([known]) => known === name)) steps.push([name, entries]);
      for (const [tool, results] of Object.entries(sub.reports)) if (!Object.hasOwn(reports, tool)) reports[tool] = results;
      for (const [step, verdicts] of Object.entries(sub.judges)) if (!Object.hasOwn(judges, step)) judges[step] = verdicts;
    }
  }
  return { steps, reports, judges };
}
