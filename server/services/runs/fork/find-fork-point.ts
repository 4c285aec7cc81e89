import type { Db } from "@/server/persistence/db";
import { invalidInput, notFound } from "../../errors";

/** An attempt of a run, located in its ledger, that a new run can be forked from. */
export interface ForkPoint {
  readonly runId: string;
  readonly artifactId: string;
  /** The attempt's key with its visit: "implement/attempt-2" ("implement#2/attempt-1" on a revisit). */
  readonly attemptKey: string;
  readonly stepName: string;
  readonly attempt: number;
  /**
   * The ledger seq where the attempt's own work starts: everything recorded before it is what a
   * fork reuses, everything from it on is redone.
   */
  readonly firstSeq: number;
  /** The prompt the attempt was generated from, as its generator recorded it (null when it recorded none). */
  readonly prompt: string | null;
  /** The feedback the attempt received: its parent attempt's verdict feedback, "" for a first attempt. */
  readonly feedback: string;
  /** The generator that made the attempt ("replay": a cassette, which answers a fork with the same recorded content). */
  readonly generator: string | null;
}

const GENERATED = /^event:(.+\/attempt-\d+)\/generated$/;

/**
 * Finds the attempt that produced `artifactId` in run `runId` from the run's ledger.
 * @throws ServiceError NOT_FOUND for an unknown run or artifact, INVALID_INPUT (naming artifactId)
 * for an artifact no generator produced (a reviewer's edit).
 */
export async function findForkPoint(db: Db, runId: string, artifactId: string): Promise<ForkPoint> {
  const artifact = await db.artifact.findFirst({ where: { id: artifactId, runId }, select: { id: true, stepName: true, attempt: true, parentId: true } });
  if (!artifact) {
    // The run is read only to say which one is missing (forkRun has read it already).
    const run = await db.run.findUnique({ where: { id: runId }, select: { id: true } });
    throw run ? notFound("Attempt", artifactId) : notFound("Run", runId);
  }

  // An attempt's generator.completed entry is keyed `event:<attemptKey>/generated` and names its artifact.
  const generated = await db.ledgerEntry.findMany({ where: { runId, type: "generator.completed", callKey: { endsWith: "/generated" } }, select: { seq: true, callKey: true, payload: true } });
  const entry = generated.find((row) => (row.payload as { artifactId?: unknown }).artifactId === artifactId);
  const attemptKey = entry?.callKey?.match(GENERATED)?.[1];
  if (!entry || !attemptKey) throw invalidInput("artifactId", `"${artifactId}" was not produced by a generator (a reviewer's edit); fork from the attempt it edits`);

  const [firstCall, parent] = await Promise.all([
    db.ledgerEntry.findFirst({ where: { runId, callKey: { startsWith: `result:${attemptKey}/` } }, orderBy: { seq: "asc" }, select: { seq: true } }),
    artifact.parentId ? db.artifact.findUnique({ where: { id: artifact.parentId }, select: { feedback: true } }) : null,
  ]);
  const metadata = (entry.payload as { metadata?: { prompt?: unknown; generator?: unknown } }).metadata;
  const prompt = metadata?.prompt;
  return {
    runId,
    artifactId,
    attemptKey,
    stepName: artifact.stepName,
    attempt: artifact.attempt,
    firstSeq: Math.min(entry.seq, firstCall?.seq ?? entry.seq),
    prompt: typeof prompt === "string" ? prompt : null,
    feedback: parent?.feedback ?? "",
    generator: typeof metadata?.generator === "string" ? metadata.generator : null,
  };
}
