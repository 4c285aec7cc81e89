import type { Db } from "../../persistence/db";
import { CASSETTE_FORMAT, type Cassette } from "../../generators/replay/cassette";
import { notFound } from "../errors";

/**
 * A run's artifacts as a cassette: every attempt's content, per step in attempt order, so
 * replaying it through the same steps reproduces the run without a model. Steps appear in the
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
    steps: Object.fromEntries(ordered.map(([name, step]) => [name, step.contents])),
  };
}
