import type { RouterOutputs } from "@/server/api/root";

type RunModelPlan = RouterOutputs["models"]["planRun"];
type Planned = RunModelPlan["models"][number];

/** "model on endpoint" → the steps (and judges) that call it, in step order. */
function groupByModel(models: readonly Planned[]): { model: string; endpoint: string; uses: string[] }[] {
  const groups = new Map<string, { model: string; endpoint: string; uses: string[] }>();
  for (const planned of models) {
    if (!planned.ok) continue;
    const key = `${planned.endpointName}\u0000${planned.model}`;
    const group = groups.get(key) ?? { model: planned.model, endpoint: planned.endpointName, uses: [] };
    const use = planned.use === "llm_judge" ? `${planned.step} (llm_judge guard)` : planned.step;
    if (!group.uses.includes(use)) group.uses.push(use);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/** What the Run dialog says about models: which ones the run will call, that it replays, or why it cannot start. */
export function RunModelsNote({ plan, replay, loading, error }: { plan?: RunModelPlan; replay: boolean; loading: boolean; error?: string }) {
  if (loading) return <p className="text-sm text-slate-500">Checking which model this run will use…</p>;
  if (error || !plan) return error ? <p className="text-sm text-slate-500">Which model this run will use is not known: {error}</p> : null;
  if (plan.refusal) {
    return (
      <p role="alert" data-testid="run-models" data-ready="false" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
        This run cannot start: {plan.refusal}
      </p>
    );
  }
  const groups = groupByModel(plan.models);
  return (
    <div data-testid="run-models" data-ready="true" className="rounded-md bg-slate-50 px-3 py-2 text-sm text-slate-700">
      {replay && <p>Replays a cassette: its steps call no model{groups.length > 0 ? "; these guards still do:" : "."}</p>}
      {!replay && groups.length === 0 && <p>No step of this workflow calls a model.</p>}
      {groups.length > 0 && (
        <ul className="space-y-0.5">
          {groups.map((group) => (
            <li key={`${group.endpoint}/${group.model}`}>
              Model <span className="font-mono font-medium">{group.model}</span> on endpoint <span className="font-medium">{group.endpoint}</span>: {group.uses.join(", ")}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
