"use client";

import "@xyflow/react/dist/style.css";
import { useMemo } from "react";
import { Background, Controls, ReactFlow } from "@xyflow/react";
import type { RouterOutputs } from "@/server/api/root";
import { MachineLegend } from "./machine-legend";
import { STATE_NODE_TYPES } from "./state-node";
import { machineToFlow } from "./to-flow";

type MachineView = NonNullable<RouterOutputs["run"]["get"]["machine"]>;

/**
 * A run's state machine, read-only: every transition, the current state, the visited ones and the
 * path taken (with a legend). In the editor, the states the check's problems (red) or only its
 * warnings (amber) concern.
 */
export function StateMachineGraph({ machine, height = 420, problemStates, warnedStates }: { machine: MachineView; height?: number; problemStates?: readonly string[]; warnedStates?: readonly string[] }) {
  const flow = useMemo(() => machineToFlow(machine, problemStates, { warnedStates }), [machine, problemStates, warnedStates]);
  const showProgress = flow.nodes.some((node) => node.data.showProgress);
  return (
    <div>
      {showProgress && <MachineLegend />}
      <div style={{ height }} className="rounded-lg border border-slate-200 bg-white" data-testid="state-machine">
        <ReactFlow nodes={flow.nodes} edges={flow.edges} nodeTypes={STATE_NODE_TYPES} nodesDraggable={false} nodesConnectable={false} fitView proOptions={{ hideAttribution: true }}>
          <Background />
          <Controls showInteractive={false} />
        </ReactFlow>
      </div>
    </div>
  );
}
