import { PROGRESS_LABEL, type StateProgress } from "./to-flow";
import { PROGRESS_MARK, PROGRESS_TONE } from "./state-node";

const PROGRESSES: readonly StateProgress[] = ["current", "visited", "unvisited"];

/** What the marks of a run's machine mean, in words beside each swatch. */
export function MachineLegend() {
  return (
    <ul data-testid="machine-legend" aria-label="Legend" className="flex flex-wrap items-center gap-x-4 gap-y-1 px-1 pb-2 text-xs text-slate-600">
      {PROGRESSES.map((progress) => (
        <li key={progress} className="flex items-center gap-1.5">
          <span aria-hidden="true" className={`inline-block h-3 w-5 rounded border-2 ${PROGRESS_TONE[progress].replace(/ring-\S+/g, "")}`} />
          {PROGRESS_MARK[progress]} {PROGRESS_LABEL[progress]} state
        </li>
      ))}
      <li className="flex items-center gap-1.5">
        <span aria-hidden="true" className="inline-block h-0.5 w-5 bg-emerald-600" />
        transition taken
      </li>
      <li className="flex items-center gap-1.5">
        <span aria-hidden="true" className="inline-block w-5 border-t-2 border-dotted border-slate-400" />
        answer of a transition step
      </li>
      <li className="flex items-center gap-1.5">
        <span aria-hidden="true" className="inline-block w-5 border-t-2 border-dashed border-slate-400" />
        from any state
      </li>
    </ul>
  );
}
