/**
 * Why a control is disabled for this role, shown beside it (a disabled button's tooltip does not
 * appear on every device). Controls point at it with aria-describedby.
 */
export function RefusalNote({ id, reason }: { id: string; reason: string | null }) {
  if (!reason) return null;
  return (
    <span id={id} data-testid="refusal-reason" className="text-xs text-slate-500">
      {reason}
    </span>
  );
}
