import { isFallbackStep, stepPlacement, statesOfStep } from "@/server/engine/domain/in-state";
import type { WorkflowDefinition } from "@/server/workflows/definition";

/**
 * Where an edge of the drawn machine comes from: a `state_machine.transitions` entry, a step's
 * `transition_to`, or one answer of a transition step's `transition_map`.
 */
export type MachineEdgeSource = "transition" | "transition_to" | "transition_map";

export interface MachineViewStep {
  readonly name: string;
  readonly type: string;
  readonly generator: string | null;
  readonly guards: readonly string[];
  /** The step's retry budget as attempts (1 + max_retries); null for a definition stored without one. */
  readonly maxAttempts: number | null;
}

export interface MachineViewTransition {
  readonly from: string;
  readonly to: string;
  /** The condition of a transition, or the answer of a transition_map edge; null when it always applies. */
  readonly condition: string | null;
  readonly source: MachineEdgeSource;
  /** The step a transition_to or transition_map edge belongs to. */
  readonly step: string | null;
}

/** What the run page draws of a run's state machine: states with their steps, every edge, the path taken. */
export interface MachineView {
  readonly states: readonly {
    readonly name: string;
    readonly initial: boolean;
    readonly final: boolean;
    readonly steps: readonly MachineViewStep[];
  }[];
  readonly transitions: readonly MachineViewTransition[];
  /** The states the run entered, in order (a revisited state appears again). */
  readonly path: readonly string[];
  readonly current: string | null;
}

/** Every way the machine can move: transitions, then each step's transition_to and transition_map, in document order. */
function edgesOf(definition: WorkflowDefinition): MachineViewTransition[] {
  const edges: MachineViewTransition[] = definition.state_machine.transitions.map((transition) => ({
    from: transition.from,
    to: transition.to,
    condition: transition.condition ?? null,
    source: "transition",
    step: null,
  }));
  for (const step of definition.steps) {
    for (const from of statesOfStep(step.in_state, definition.state_machine.states)) {
      if (step.transition_to !== undefined) edges.push({ from, to: step.transition_to, condition: null, source: "transition_to", step: step.name });
      for (const [answer, to] of Object.entries(step.transition_map ?? {})) {
        edges.push({ from, to, condition: `answer "${answer}"`, source: "transition_map", step: step.name });
      }
    }
  }
  return edges;
}

/** A step.started fact of the ledger: the step and, when the run recorded it, the state it ran in. */
export interface StartedStep {
  readonly step: string;
  readonly state: string | null;
}

/**
 * The machine of a run's pinned definition and the path the run took: the state each started
 * step ran in, in ledger order (each start is one turn, so the same state twice in a row is a
 * loop back into it), then `endState`, where the run ended or suspended (null while it runs).
 * Runs recorded before steps named their state fall back to the step's only in_state.
 * `current` defaults to the end of that path once the run has started a step. Pure.
 */
export function machineView(definition: WorkflowDefinition, startedSteps: readonly StartedStep[], endState: string | null, current: string | null): MachineView {
  // Older ledgers: a step that runs in one state ran there; one in several does not say which.
  const onlyStateOf = new Map(definition.steps.flatMap((step) => (typeof step.in_state === "string" && !isFallbackStep(step.in_state) ? [[step.name, step.in_state] as const] : [])));
  const path: string[] = [definition.state_machine.initial_state];
  startedSteps.forEach((started, index) => {
    if (started.state !== null) {
      if (index > 0 || started.state !== path[0]) path.push(started.state);
      return;
    }
    const state = onlyStateOf.get(started.step);
    if (state !== undefined && path.at(-1) !== state) path.push(state);
  });
  if (endState !== null && path.at(-1) !== endState) path.push(endState);
  return {
    states: definition.state_machine.states.map((name) => ({
      name,
      initial: name === definition.state_machine.initial_state,
      final: definition.state_machine.final_states.includes(name),
      steps: definition.steps
        .filter((step) => stepPlacement(step.in_state, name) !== "elsewhere")
        .map((step) => ({
          name: step.name,
          type: step.type,
          generator: step.generator?.kind ?? null,
          guards: (step.guards ?? []).map((guard) => guard.kind),
          maxAttempts: typeof step.max_retries === "number" ? step.max_retries + 1 : null,
        })),
    })),
    transitions: edgesOf(definition),
    path,
    current: current ?? endState ?? (startedSteps.length > 0 ? (path.at(-1) ?? null) : null),
  };
}
