/** The feedback or prompt a person wrote for a fork's first regenerated attempt: what made the difference. */
export function ForkEdit({ edit }: { edit: { feedback: string | null; prompt: string | null; forkedBy: string | null } }) {
  if (edit.feedback === null && edit.prompt === null) {
    return <p className="text-xs text-slate-500">Forked{edit.forkedBy ? ` by ${edit.forkedBy}` : ""} without an edit: the attempt was generated again as it was.</p>;
  }
  return (
    <div data-testid="fork-edit" className="space-y-2 text-xs">
      {edit.feedback !== null && (
        <div>
          <p className="font-medium text-slate-700">Edited feedback{edit.forkedBy ? ` (by ${edit.forkedBy})` : ""}</p>
          <p data-testid="fork-edit-feedback" className="mt-1 max-h-40 overflow-auto whitespace-pre-wrap break-words rounded bg-amber-50 p-2 font-mono leading-5 text-slate-800">
            {edit.feedback}
          </p>
        </div>
      )}
      {edit.prompt !== null && (
        <details>
          <summary className="cursor-pointer font-medium text-slate-700">Edited prompt{edit.feedback === null && edit.forkedBy ? ` (by ${edit.forkedBy})` : ""}</summary>
          <pre data-testid="fork-edit-prompt" className="mt-1 max-h-64 overflow-auto whitespace-pre-wrap break-words rounded bg-amber-50 p-2 font-mono leading-5 text-slate-800">
            {edit.prompt}
          </pre>
        </details>
      )}
    </div>
  );
}
