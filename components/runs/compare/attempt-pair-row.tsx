import { DiffView } from "@/components/escalations/diff-view";
import { verdictOf } from "../verdict";
import { VerdictBadge } from "../verdict-badge";
import { ForkEdit } from "../fork-edit";
import type { ForkPointNote } from "./fork-point-at";
import type { ComparedAttempt, ComparedSide } from "./types";

function Side({ name, attempt }: { name: "a" | "b"; attempt: ComparedSide | null }) {
  if (!attempt) {
    return (
      <div data-testid={`pair-${name}`} data-missing="true" className="text-xs italic text-slate-500">
        No such attempt in this run
      </div>
    );
  }
  return (
    <div data-testid={`pair-${name}`} className="space-y-2">
      <VerdictBadge verdict={verdictOf(attempt)} />
      {attempt.feedback && <p className="whitespace-pre-wrap break-words rounded bg-slate-50 p-2 font-mono text-xs leading-5 text-slate-700">{attempt.feedback}</p>}
    </div>
  );
}

/** One attempt of both runs: verdicts and feedback side by side, and how their content differs; at a fork point, the edit that made the difference. */
export function AttemptPairRow({ pair, forkPoint }: { pair: ComparedAttempt; forkPoint?: ForkPointNote }) {
  const title = `${pair.stepName} attempt ${pair.attempt}`;
  return (
    <li data-testid="attempt-pair" data-key={pair.key} data-fork-point={forkPoint ? forkPoint.side : undefined} className="space-y-3 rounded-md border border-slate-200 p-4">
      <h3 className="font-mono text-sm font-semibold text-slate-900">{pair.key.includes("#") ? `${title} (occurrence ${pair.key.split("#")[1]})` : title}</h3>
      {forkPoint && (
        <div className="space-y-2 rounded border border-amber-200 bg-amber-50/50 p-3">
          <p className="text-xs font-medium text-amber-900">Run {forkPoint.side} was forked here: this attempt was generated anew from this edit.</p>
          <ForkEdit edit={forkPoint.edit} />
        </div>
      )}
      <div className="grid gap-4 md:grid-cols-2">
        <Side name="a" attempt={pair.a} />
        <Side name="b" attempt={pair.b} />
      </div>
      {pair.sameContent && (
        <p data-testid="pair-same" className="text-xs text-slate-500">
          Same content in both runs.
        </p>
      )}
      {pair.diff && (
        <details>
          <summary className="cursor-pointer text-xs font-medium text-slate-600 hover:text-slate-900">Content diff, A → B</summary>
          <div className="mt-2">
            <DiffView lines={pair.diff} label={`Content diff of ${title}, A to B`} />
          </div>
        </details>
      )}
    </li>
  );
}
