import { fieldClass } from "./select";

/** A labelled date field holding YYYY-MM-DD ("" when empty). */
export function DayInput({ label, value, onChange }: { label: string; value: string; onChange: (day: string) => void }) {
  return (
    <label className="flex flex-col gap-1 text-sm font-medium">
      {label}
      <input type="date" value={value} onChange={(event) => onChange(event.target.value)} className={fieldClass} />
    </label>
  );
}
