/** How many of an experiment's samples ended, as a bar a screen reader reads as a progress bar. */
export function ProgressBar({ ended, total, inFlight }: { ended: number; total: number; inFlight: number }) {
  const share = total === 0 ? 0 : ended / total;
  return (
    <div className="space-y-1">
      <div className="h-3 w-full overflow-hidden rounded-full bg-slate-200" role="progressbar" aria-label="Samples ended" aria-valuemin={0} aria-valuemax={total} aria-valuenow={ended}>
        <div className="h-full bg-slate-800 transition-all" style={{ width: `${(share * 100).toFixed(1)}%` }} />
      </div>
      <p className="text-sm text-slate-600" data-testid="experiment-progress">
        {ended} of {total} samples ended{inFlight > 0 ? `, ${inFlight} running` : ""}
      </p>
    </div>
  );
}
