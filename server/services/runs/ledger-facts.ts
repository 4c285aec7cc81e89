import type { LedgerFact } from "./step-runs";

/** How an attempt was generated, as its generator.completed entry recorded it. */
export interface AttemptOrigin {
  /** The prompt the attempt was generated from (null when the generator recorded none). */
  readonly prompt: string | null;
  /** The generator kind ("openai", "replay", "agent"...). */
  readonly generator: string | null;
}

/** Who cancelled the run, why and when (`run.cancelled`, written by the turn that ends it). */
export interface Cancellation {
  /** The person's email; null for a cancel from the command line or an older run. */
  readonly by: string | null;
  readonly reason: string;
  readonly at: Date;
}

/** What a person changed in the attempt a fork starts from (`run.forked`). */
export interface ForkEdit {
  readonly feedback: string | null;
  readonly prompt: string | null;
  readonly forkedBy: string | null;
}

const text = (value: unknown): string | null => (typeof value === "string" ? value : null);

/** Each generated attempt's prompt and generator, by artifact id. Pure. */
export function attemptOrigins(facts: readonly LedgerFact[]): Map<string, AttemptOrigin> {
  const origins = new Map<string, AttemptOrigin>();
  for (const fact of facts) {
    if (fact.type !== "generator.completed") continue;
    const artifactId = text(fact.payload.artifactId);
    if (artifactId === null) continue;
    const metadata = typeof fact.payload.metadata === "object" && fact.payload.metadata !== null ? (fact.payload.metadata as Record<string, unknown>) : {};
    origins.set(artifactId, { prompt: text(metadata.prompt), generator: text(metadata.generator) });
  }
  return origins;
}

/** The run's cancellation, or null when it was not cancelled through a recorded cancel. Pure. */
export function cancellationOf(facts: readonly LedgerFact[]): Cancellation | null {
  const fact = facts.findLast((candidate) => candidate.type === "run.cancelled");
  if (!fact) return null;
  return { by: text(fact.payload.by), reason: text(fact.payload.reason) ?? "cancelled", at: fact.createdAt };
}

/** A fork's edit, or null for a run that is no fork. Pure. */
export function forkEditOf(facts: readonly LedgerFact[]): ForkEdit | null {
  const fact = facts.find((candidate) => candidate.type === "run.forked");
  if (!fact) return null;
  return { feedback: text(fact.payload.feedback), prompt: text(fact.payload.prompt), forkedBy: text(fact.payload.forkedBy) };
}
