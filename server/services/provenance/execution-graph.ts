/**
 * The execution edges of a run (003 3.1.1) drawn next to its artifact DAG: each waiting tool call
 * is a node below the attempt that made it (ToolWait.stepName/attempt), linked by its tool_call
 * edge and, once answered, its report edge back to the attempt; a workflow tool's sub-run and a
 * sub-run's parent are run nodes linked by join edges. Pure.
 */
export interface ExecutionCall {
  readonly id: string;
  readonly stepName: string;
  readonly attempt: number;
  readonly tool: string;
  readonly kind: string;
  readonly status: string;
  readonly reportedBy: string | null;
  readonly childRunId: string | null;
  readonly createdAt: Date;
}

export interface ExecutionEdgeRow {
  readonly id: string;
  readonly runId: string;
  readonly primitive: string;
  readonly phase: string;
  readonly kind: string | null;
  readonly fromRunId: string | null;
  readonly callId: string | null;
}

export interface LinkedRun {
  readonly id: string;
  readonly status: string;
  readonly workflow: string | null;
}

export type ExecutionNode =
  | { readonly id: string; readonly kind: "call"; readonly callId: string; readonly tool: string; readonly toolKind: string; readonly status: string; readonly step: string; readonly attempt: number; readonly reportedBy: string | null; readonly at: Date }
  | { readonly id: string; readonly kind: "run"; readonly runId: string; readonly relation: "parent" | "child"; readonly status: string | null; readonly workflow: string | null };

export interface ExecutionGraphEdge {
  readonly id: string;
  readonly kind: "tool_call" | "report" | "join";
  readonly phase: "request" | "response";
  readonly source: string;
  readonly target: string;
  readonly label?: string;
}

export interface ExecutionGraph {
  readonly nodes: readonly ExecutionNode[];
  readonly edges: readonly ExecutionGraphEdge[];
}

export interface ExecutionGraphInput {
  readonly runId: string;
  /** The run's artifacts, oldest first: the attempt a call belongs to, and the first and last for a sub-run's joins. */
  readonly artifacts: readonly { readonly id: string; readonly stepName: string; readonly attempt: number }[];
  readonly calls: readonly ExecutionCall[];
  /** Edges entering the run, and those it sent into other runs (fromRunId = the run). */
  readonly edges: readonly ExecutionEdgeRow[];
  readonly parent: LinkedRun | null;
  readonly children: readonly LinkedRun[];
}

export const callNodeId = (callId: string) => `call:${callId}`;
export const runNodeId = (runId: string) => `run:${runId}`;

export function buildExecutionGraph(input: ExecutionGraphInput): ExecutionGraph {
  const nodes: ExecutionNode[] = [];
  const edges: ExecutionGraphEdge[] = [];
  const attemptArtifact = new Map<string, string>();
  for (const artifact of input.artifacts) if (!attemptArtifact.has(`${artifact.stepName}/${artifact.attempt}`)) attemptArtifact.set(`${artifact.stepName}/${artifact.attempt}`, artifact.id);
  const callById = new Map(input.calls.map((call) => [call.id, call]));
  const artifactOfCall = (callId: string | null) => {
    const call = callId ? callById.get(callId) : undefined;
    return call ? attemptArtifact.get(`${call.stepName}/${call.attempt}`) : undefined;
  };

  for (const call of input.calls) {
    nodes.push({ id: callNodeId(call.id), kind: "call", callId: call.id, tool: call.tool, toolKind: call.kind, status: call.status, step: call.stepName, attempt: call.attempt, reportedBy: call.reportedBy, at: call.createdAt });
  }
  const runNodes = new Map<string, ExecutionNode>();
  const addRun = (run: LinkedRun | { id: string }, relation: "parent" | "child") => {
    if (runNodes.has(run.id)) return;
    const full = "status" in run ? run : null;
    runNodes.set(run.id, { id: runNodeId(run.id), kind: "run", runId: run.id, relation, status: full?.status ?? null, workflow: full?.workflow ?? null });
  };
  if (input.parent) addRun(input.parent, "parent");
  for (const child of input.children) addRun(child, "child");

  const first = input.artifacts[0]?.id;
  const last = input.artifacts.at(-1)?.id;
  const push = (row: ExecutionEdgeRow, kind: ExecutionGraphEdge["kind"], source: string | undefined, target: string | undefined, label: string) => {
    if (source && target) edges.push({ id: `edge:${row.id}`, kind, phase: row.phase === "response" ? "response" : "request", source, target, label });
  };
  const knownCall = (callId: string | null) => (callId && callById.has(callId) ? callNodeId(callId) : undefined);

  for (const row of input.edges) {
    const incoming = row.runId === input.runId;
    if (row.primitive === "tool_call" && incoming) {
      push(row, "tool_call", artifactOfCall(row.callId), knownCall(row.callId), `tool_call/${row.phase}`);
    } else if (row.primitive === "report" && incoming && row.callId) {
      // The watchdog's timeout is a report like any other (kind "report"); the call's status tells it apart.
      const timedOut = row.kind === "timeout" || callById.get(row.callId)?.status === "timed_out";
      push(row, "report", knownCall(row.callId), artifactOfCall(row.callId), `report/${row.phase}${timedOut ? " (timeout)" : ""}`);
    } else if (row.primitive === "join") {
      if (!incoming) {
        // This run started a sub-run (request), or its result went to this run's parent (response).
        const isParent = input.parent?.id === row.runId;
        addRun({ id: row.runId }, isParent ? "parent" : "child");
        if (isParent) push(row, "join", last, runNodeId(row.runId), `join/${row.phase}`);
        else push(row, "join", knownCall(row.callId), runNodeId(row.runId), `join/${row.phase}`);
      } else if (row.fromRunId) {
        // The parent started this run (request), or a sub-run's result joined this run (response).
        const isParent = input.parent?.id === row.fromRunId || row.phase === "request";
        addRun({ id: row.fromRunId }, isParent ? "parent" : "child");
        if (isParent) push(row, "join", runNodeId(row.fromRunId), first, `join/${row.phase}`);
        else push(row, "join", runNodeId(row.fromRunId), knownCall(row.callId), `join/${row.phase}`);
      }
    }
  }
  return { nodes: [...nodes, ...runNodes.values()], edges };
}
