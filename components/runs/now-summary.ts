import type { RunStatus } from "@/components/dashboard/run-status-badge";

/** What describeNow reads of a run: a structural slice of run.get, so tests can build it by hand. */
export interface NowInput {
  readonly status: RunStatus;
  readonly currentStep: string | null;
  readonly attemptCount: number;
  readonly finishedAt: Date | null;
  /** Tool calls a suspended run waits for (absent: none). */
  readonly waitingToolCount?: number;
  readonly finalResult: { readonly status: string; readonly failedStep: string | null; readonly reason: string | null } | null;
  readonly cancellation: { readonly by: string | null; readonly reason: string; readonly at: Date } | null;
  readonly escalations: readonly { readonly id: string; readonly stepName: string; readonly status: string; readonly expiresAt: Date | null }[];
  readonly machine: {
    readonly current: string | null;
    readonly states: readonly { readonly name: string; readonly steps: readonly { readonly name: string; readonly type: string; readonly guards: readonly string[]; readonly maxAttempts: number | null }[] }[];
  } | null;
  /** The newest ledger entries, in seq order. */
  readonly ledger: { readonly entries: readonly { readonly type: string; readonly payload: Readonly<Record<string, unknown>> }[] };
}

export type NowTone = "waiting" | "active" | "person" | "success" | "failure" | "cancelled";

/** Where the run stands in its machine. */
export interface NowPosition {
  readonly state: string | null;
  readonly step: string | null;
  readonly attempt: number | null;
  readonly maxAttempts: number | null;
}

/** The run page's first line: what is happening now, or how the run ended. */
export interface NowSummary {
  readonly tone: NowTone;
  readonly headline: string;
  readonly position: NowPosition | null;
  /** What the current step is doing: waiting for the model, checking an attempt with its guards... */
  readonly activity: string | null;
  /** The escalation a person must decide, for a link. */
  readonly escalationId: string | null;
  /** When the run ended (or was cancelled). */
  readonly at: Date | null;
  /** Why it failed or was cancelled. */
  readonly detail: string | null;
}

type StepInfo = { readonly type: string; readonly guards: readonly string[]; readonly maxAttempts: number | null; readonly state: string };

function stepInfo(machine: NowInput["machine"], step: string | null): StepInfo | null {
  if (!machine || step === null) return null;
  for (const state of machine.states) {
    const found = state.steps.find((candidate) => candidate.name === step);
    if (found) return { type: found.type, guards: found.guards, maxAttempts: found.maxAttempts, state: state.name };
  }
  return null;
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;

function waitingFor(policy: unknown): string {
  if (policy === "model") return "waiting for the model";
  if (policy === "replay") return "waiting for the recorded answer (replay)";
  return `waiting for the tool ${typeof policy === "string" ? `"${policy}"` : "call"}`;
}

/** What a running step is doing, read from the ledger entries written since it started. */
function runningStep(input: NowInput): { step: string | null; attempt: number | null; activity: string } {
  const entries = input.ledger.entries;
  const startIndex = entries.findLastIndex((entry) => entry.type === "step.started");
  const step = startIndex >= 0 ? String(entries[startIndex]!.payload.step) : input.currentStep;
  const info = stepInfo(input.machine, step);
  const since = startIndex >= 0 ? entries.slice(startIndex + 1) : [];
  const verdicts = since.filter((entry) => entry.type === "guard.completed" && entry.payload.step === step);
  const isPair = info?.type === "action_pair" || (startIndex >= 0 && typeof entries[startIndex]!.payload.guardId === "string");
  // An llm, code or transition step counts its attempts only once one has failed.
  const failedAttempts = since.filter((entry) => entry.type === "step.attempt_failed" && entry.payload.step === step).length;
  const attempt = isPair ? verdicts.length + 1 : failedAttempts > 0 ? failedAttempts + 1 : null;
  const last = since.at(-1);
  const guards = info && info.guards.length > 0 ? `${plural(info.guards.length, "guard")} (${info.guards.join(", ")})` : "its guards";
  if (!last) {
    if (info?.type === "code") return { step, attempt, activity: "running its code in the sandbox" };
    return { step, attempt, activity: startIndex >= 0 ? "starting" : "starting the run" };
  }
  switch (last.type) {
    case "action_call":
      return { step, attempt, activity: waitingFor(last.payload.policy) };
    case "action_result":
    case "generator.completed":
      return isPair ? { step, attempt, activity: `checking attempt ${attempt} with ${guards}` } : { step, attempt, activity: "the answer arrived; finishing the step" };
    case "guard.completed": {
      const done = verdicts.length;
      if (last.payload.passed === true) return { step, attempt: done, activity: `attempt ${done} passed; moving on` };
      return { step, attempt, activity: `attempt ${done} failed its guards; asking again with the feedback` };
    }
    case "step.attempt_failed":
      return { step, attempt, activity: `attempt ${failedAttempts} failed (${String(last.payload.reason)}); trying again` };
    case "step.exhausted":
      return { step, attempt: isPair ? verdicts.length : failedAttempts, activity: "out of retries; its on_failure decides" };
    case "state.advanced":
    case "step.completed":
      return { step, attempt: isPair ? verdicts.length : failedAttempts > 0 ? failedAttempts + 1 : null, activity: "done; moving on" };
    default:
      return { step, attempt, activity: "working" };
  }
}

/**
 * What the run is doing now, or how it ended, from its live data: status, head, escalations and
 * the newest ledger entries. Pure: the run page renders it above everything else.
 */
export function describeNow(input: NowInput): NowSummary {
  const none = { position: null, activity: null, escalationId: null, at: null, detail: null };
  const current = input.machine?.current ?? null;
  switch (input.status) {
    case "queued": {
      const resumed = input.ledger.entries.length > 0;
      return { ...none, tone: "waiting", headline: resumed ? "Queued again" : "Queued", activity: resumed ? "waiting for a worker to resume it" : "waiting for a worker" };
    }
    case "dispatched":
    case "running": {
      if (!input.ledger.entries.some((entry) => entry.type === "run.started")) return { ...none, tone: "waiting", headline: "Starting", activity: "a worker picked the run up" };
      const { step, attempt, activity } = runningStep(input);
      const info = stepInfo(input.machine, step);
      return { ...none, tone: "active", headline: "Running", position: { state: info?.state ?? current, step, attempt, maxAttempts: attempt === null ? null : (info?.maxAttempts ?? null) }, activity };
    }
    case "suspended": {
      const pending = input.escalations.findLast((escalation) => escalation.status === "pending");
      const step = pending?.stepName ?? input.currentStep;
      const calls = input.waitingToolCount ?? 0;
      // Suspended on tool calls (a person's answer, a sub-run, another system), not on an escalation.
      if (!pending && calls > 0) {
        return {
          ...none,
          tone: "person",
          headline: calls === 1 ? "Waiting for a tool call" : `Waiting for ${calls} tool calls`,
          position: { state: stepInfo(input.machine, step)?.state ?? current, step, attempt: null, maxAttempts: null },
          activity: "the run resumes when every call below has its answer, sub-run result or outside report",
        };
      }
      return {
        ...none,
        tone: "person",
        headline: "Waiting for a person",
        position: { state: stepInfo(input.machine, step)?.state ?? current, step, attempt: null, maxAttempts: null },
        activity: pending ? `to decide the escalation on step ${pending.stepName}` : "to decide an escalation",
        escalationId: pending?.id ?? null,
        at: pending?.expiresAt ?? null,
      };
    }
    case "succeeded":
      return { ...none, tone: "success", headline: `Succeeded in ${plural(input.attemptCount, "attempt")}`, position: { state: current, step: null, attempt: null, maxAttempts: null }, at: input.finishedAt };
    case "cancelled":
      return {
        ...none,
        tone: "cancelled",
        headline: input.cancellation?.by ? `Cancelled by ${input.cancellation.by}` : "Cancelled",
        position: current ? { state: current, step: null, attempt: null, maxAttempts: null } : null,
        at: input.cancellation?.at ?? input.finishedAt,
        detail: input.cancellation?.reason ?? null,
      };
    case "failed":
    case "escalated": {
      const failedStep = input.finalResult?.failedStep ?? null;
      const atStep = failedStep !== null && failedStep !== "(run)" ? failedStep : null;
      const verb = input.status === "failed" ? "Failed" : "Ended waiting for a person";
      return {
        ...none,
        tone: "failure",
        headline: atStep ? `${verb} at step ${atStep}` : verb,
        position: { state: stepInfo(input.machine, atStep)?.state ?? current, step: atStep, attempt: null, maxAttempts: null },
        at: input.finishedAt,
        detail: input.finalResult?.reason ?? null,
      };
    }
    default: {
      const unknown: never = input.status;
      return { ...none, tone: "waiting", headline: String(unknown) };
    }
  }
}

/** The summary as one sentence: "Running — in state implementing, step implement, attempt 2 of 4: waiting for the model". */
export function nowSentence(summary: NowSummary): string {
  const where: string[] = [];
  if (summary.position?.state) where.push(`${summary.tone === "success" ? "ended in" : "in"} state ${summary.position.state}`);
  if (summary.position?.step) where.push(`step ${summary.position.step}`);
  if (summary.position?.attempt != null) where.push(`attempt ${summary.position.attempt}${summary.position.maxAttempts != null ? ` of ${summary.position.maxAttempts}` : ""}`);
  const place = where.length > 0 ? ` — ${where.join(", ")}` : "";
  const activity = summary.activity ? `${place ? ":" : " —"} ${summary.activity}` : "";
  const detail = summary.detail ? ` (${summary.detail})` : "";
  return `${summary.headline}${place}${activity}${detail}`;
}
