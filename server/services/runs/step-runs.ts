/** A ledger row as the run page reads it: payloads already parsed to objects. */
export interface LedgerFact {
  readonly seq: number;
  readonly type: string;
  readonly createdAt: Date;
  readonly payload: Readonly<Record<string, unknown>>;
}

export type StepRunKind = "llm" | "transition" | "code";
const STEP_RUN_KINDS: readonly string[] = ["llm", "transition", "code"] satisfies StepRunKind[];

/**
 * One run of an llm, transition or code step: what it produced (its output, stored as an
 * artifact), the attempts that failed, or where it stopped. `stopped`: the run ended while the
 * step ran (a cancel).
 */
export interface StepRun {
  /** The step and its visit, unique in the run: "ideate", "ideate#2" on a revisit. */
  readonly key: string;
  readonly step: string;
  readonly kind: StepRunKind;
  readonly visit: number;
  /** `skipped`: every attempt failed and its on_failure (skip) let the run go on without it. */
  readonly status: "running" | "completed" | "failed" | "skipped" | "stopped";
  /** The step's output: an llm answer, the transition_map key chosen, a code step's variables as JSON. */
  readonly output: string | null;
  /** The state the step ran in, when the run recorded it. */
  readonly state: string | null;
  /** A transition step's decision: the state its answer chose. */
  readonly chosenState: string | null;
  /** The output's artifact in the provenance DAG (runs since issue 17). */
  readonly artifactId: string | null;
  /** The prompt that answer was generated from, when the generator recorded it. */
  readonly prompt: string | null;
  /** The context variables a code step set. */
  readonly updates: Readonly<Record<string, unknown>> | null;
  /** Why a failed step failed (the run's reason). */
  readonly reason: string | null;
  /** The attempts that failed before the last one (or all of them), in order, each with its reason. */
  readonly failedAttempts: readonly { readonly attempt: number; readonly reason: string; readonly artifactId: string | null }[];
  readonly seq: number;
  readonly startedAt: Date;
}

/** How the run ended, as far as its step runs care; null while it has not. */
export interface RunEnding {
  readonly failedStep: string | null;
  readonly reason: string | null;
}

const text = (value: unknown): string | null => (typeof value === "string" ? value : null);

/**
 * The llm, transition and code step runs of a run, in order, from its `step.started` and
 * `step.completed` entries. Runs recorded before steps of these kinds had a `step.started` have
 * only their completion, which is then the whole entry. Pure.
 */
export function collectStepRuns(facts: readonly LedgerFact[], ending: RunEnding | null): StepRun[] {
  const runs: StepRun[] = [];
  const visits = new Map<string, number>();
  const open = new Map<string, number>();
  const begin = (fact: LedgerFact, step: string, kind: StepRunKind): number => {
    const visit = (visits.get(step) ?? 0) + 1;
    visits.set(step, visit);
    runs.push({
      key: visit === 1 ? step : `${step}#${visit}`,
      step,
      kind,
      visit,
      status: "running",
      output: null,
      state: text(fact.payload.state),
      chosenState: null,
      artifactId: null,
      prompt: null,
      updates: null,
      reason: null,
      failedAttempts: [],
      seq: fact.seq,
      startedAt: fact.createdAt,
    });
    return runs.length - 1;
  };
  /** Steps that spent their budget: skipped, unless the run ended failing them. */
  const spent = new Map<string, number>();
  for (const fact of facts) {
    const step = text(fact.payload.step);
    const spentIndex = step === null ? undefined : open.get(step);
    // step.exhausted carries no kind; an action pair's is not among the open step runs.
    if (fact.type === "step.exhausted" && step !== null && spentIndex !== undefined) {
      open.delete(step);
      spent.set(step, spentIndex);
      runs[spentIndex] = { ...runs[spentIndex]!, status: "skipped" };
      continue;
    }
    const kind = text(fact.payload.kind);
    if (step === null || kind === null || !STEP_RUN_KINDS.includes(kind)) continue;
    if (fact.type === "step.started") open.set(step, begin(fact, step, kind as StepRunKind));
    const attemptIndex = open.get(step);
    if (fact.type === "step.attempt_failed" && attemptIndex !== undefined) {
      const run = runs[attemptIndex]!;
      runs[attemptIndex] = { ...run, failedAttempts: [...run.failedAttempts, { attempt: Number(fact.payload.attempt), reason: text(fact.payload.reason) ?? "", artifactId: text(fact.payload.artifactId) }] };
    }
    if (fact.type === "step.completed") {
      const index = open.get(step) ?? begin(fact, step, kind as StepRunKind);
      open.delete(step);
      const updates = fact.payload.updates;
      runs[index] = {
        ...runs[index]!,
        status: "completed",
        output: text(fact.payload.output),
        state: runs[index]!.state ?? text(fact.payload.state),
        chosenState: text(fact.payload.to),
        artifactId: text(fact.payload.artifactId),
        prompt: text(fact.payload.prompt),
        updates: typeof updates === "object" && updates !== null ? (updates as Record<string, unknown>) : null,
      };
    }
  }
  if (ending) {
    // A step that spent its budget and ended the run failed it (on_failure fail or retry).
    const failedIndex = ending.failedStep === null ? undefined : spent.get(ending.failedStep);
    if (failedIndex !== undefined && runs[failedIndex]!.status === "skipped" && failedIndex === runs.findLastIndex((run) => run.step === ending.failedStep)) {
      runs[failedIndex] = { ...runs[failedIndex]!, status: "failed", reason: ending.reason };
    }
    for (const index of open.values()) {
      const run = runs[index]!;
      runs[index] = run.step === ending.failedStep ? { ...run, status: "failed", reason: ending.reason } : { ...run, status: "stopped" };
    }
  }
  return runs;
}

/** The steps the run started, each once, in the order of its first start (or completion). Pure. */
export function stepOrder(facts: readonly LedgerFact[]): string[] {
  const order = new Set<string>();
  for (const fact of facts) {
    const step = text(fact.payload.step);
    if (step !== null && (fact.type === "step.started" || fact.type === "step.completed")) order.add(step);
  }
  return [...order];
}
