import { isFallbackStep } from "../../engine/domain/in-state";
import type { Problems } from "./problems";
import { present, type CheckableWorkflow, type Knowledge } from "./salvage";

/** Edges of the state graph: transitions ("*" = from every state) and steps' own targets. */
export interface StateGraph {
  /** Every state reachable from each state (including itself), by any edge. */
  reachableFrom(state: string): ReadonlySet<string>;
  /** Whether a state reaches one whose ways out are not all known (its reach may be larger). */
  open(state: string): boolean;
  /** Every edge is known, up to open states. */
  readonly complete: boolean;
}

function firstIndexes(names: readonly (string | undefined)[], what: string, path: (index: number) => (string | number)[], problems: Problems): Map<string, number> {
  const seen = new Map<string, number>();
  for (const [item, index] of present(names)) {
    const first = seen.get(item);
    if (first === undefined) seen.set(item, index);
    else problems.add(path(index), `duplicate ${what} "${item}" (first at index ${first})`);
  }
  return seen;
}

/** The declared states a step runs in ("*": every one), each named state checked at its own path. */
function stepSources(inState: string | readonly string[], index: number, allStates: readonly string[], declared: (state: string, path: (string | number)[]) => boolean): string[] {
  if (isFallbackStep(inState)) return [...allStates];
  if (typeof inState === "string") return declared(inState, ["steps", index, "in_state"]) ? [inState] : [];
  return inState.filter((state, j) => declared(state, ["steps", index, "in_state", j]));
}

/**
 * States, transitions and step targets name declared states; every state is reachable from the
 * initial state and can reach a final one. Returns the graph for later checks. With parts
 * missing (`known`), a reference is judged only against a complete list of states, and
 * reachability only over a complete graph.
 */
export function checkStates(raw: CheckableWorkflow, known: Knowledge, problems: Problems): StateGraph {
  const machine = raw.state_machine;
  const states = firstIndexes(machine.states, "state", (i) => ["state_machine", "states", i], problems);
  // With a state entry that did not parse, an undeclared name may be that state: it stays a node of the graph.
  const declared = (state: string, path: (string | number)[]) => {
    if (states.has(state)) return true;
    if (known.states) problems.add(path, `"${state}" is not a declared state (state_machine.states)`);
    return !known.states;
  };
  if (machine.initial_state !== undefined) declared(machine.initial_state, ["state_machine", "initial_state"]);
  for (const [state, i] of present(machine.final_states)) declared(state, ["state_machine", "final_states", i]);

  const edges = new Map<string, Set<string>>([...states.keys()].map((state) => [state, new Set<string>()]));
  const edgesOf = (state: string): Set<string> => {
    const existing = edges.get(state);
    if (existing) return existing;
    const created = new Set<string>();
    edges.set(state, created);
    return created;
  };
  const wildcardTargets = new Set<string>();
  for (const [transition, i] of present(machine.transitions)) {
    const from = transition.from === "*" || declared(transition.from, ["state_machine", "transitions", i, "from"]);
    const to = declared(transition.to, ["state_machine", "transitions", i, "to"]);
    if (!from || !to) continue;
    if (transition.from === "*") wildcardTargets.add(transition.to);
    else edgesOf(transition.from).add(transition.to);
    edgesOf(transition.to);
  }
  for (const [step, i] of present(raw.steps)) {
    const sources = stepSources(step.in_state, i, [...states.keys()], declared);
    const targets: [string, (string | number)[]][] = [];
    if (step.transition_to !== undefined) targets.push([step.transition_to, ["steps", i, "transition_to"]]);
    for (const [answer, target] of Object.entries(step.transition_map ?? {})) targets.push([target, ["steps", i, "transition_map", answer]]);
    for (const [target, path] of targets) if (declared(target, path)) for (const source of sources) edgesOf(source).add(target);
  }
  // A misspelt key of a step may have named a way out: counting it only makes the checks below say less.
  for (const [from, to] of known.possibleEdges) if (edges.has(to)) edgesOf(from).add(to);
  // A "*" transition leaves every state, so its target is an edge from each of them.
  for (const targets of edges.values()) for (const target of wildcardTargets) targets.add(target);

  const cache = new Map<string, Set<string>>();
  const reachableFrom = (start: string): Set<string> => {
    const cached = cache.get(start);
    if (cached) return cached;
    const seen = new Set<string>([start]);
    const queue = [start];
    for (let state = queue.pop(); state !== undefined; state = queue.pop()) {
      for (const next of edges.get(state) ?? []) {
        if (seen.has(next)) continue;
        seen.add(next);
        queue.push(next);
      }
    }
    cache.set(start, seen);
    return seen;
  };

  // With an edge missing, a state could look unreachable only because of it. An open state may
  // lead anywhere, so nothing that reaches one is judged.
  const open = (reach: ReadonlySet<string>) => [...known.openStates].some((state) => reach.has(state));
  const graph: StateGraph = { reachableFrom, open: (state) => open(reachableFrom(state)), complete: known.graph };
  if (!known.graph || !known.ends) return graph;
  if (machine.initial_state !== undefined && states.has(machine.initial_state)) {
    const reachable = reachableFrom(machine.initial_state);
    if (!open(reachable)) {
      for (const [state, index] of states) {
        // It can never run, so nothing goes wrong at run time: a warning, as in 004's own example.
        if (!reachable.has(state)) problems.warn(["state_machine", "states", index], `state "${state}" is unreachable from the initial state "${machine.initial_state}"`);
      }
    }
  }
  const finals = [...present(machine.final_states)].map(([state]) => state).filter((state) => states.has(state));
  if (finals.length > 0) {
    for (const [state, index] of states) {
      const reach = reachableFrom(state);
      if (!open(reach) && !finals.some((final) => reach.has(final))) problems.add(["state_machine", "states", index], `state "${state}" has no path to a final state (${finals.join(", ")})`);
    }
  }
  return graph;
}
