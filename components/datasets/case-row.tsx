import Link from "next/link";
import { Button } from "@/components/ui/button";
import { Td } from "@/components/ui/table";
import type { DatasetCaseView } from "./types";

/** The first lines of a long text; the whole text is in the tooltip. */
function clip(text: string, max = 240): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** One case: its key, task, variables, the checks it adds, and the run or escalation it came from. */
export function CaseRow({ item, editable, busy, onEdit, onRemove }: { item: DatasetCaseView; editable: boolean; busy: boolean; onEdit: () => void; onRemove: () => void }) {
  return (
    <tr data-testid="case-row" data-key={item.key}>
      <Td className="tabular-nums text-slate-500">{item.position + 1}</Td>
      <Td className="font-mono text-xs">{item.key}</Td>
      <Td className="max-w-md whitespace-pre-wrap" title={item.specification.length > 240 ? item.specification : undefined}>
        {clip(item.specification)}
      </Td>
      <Td className="font-mono text-xs">{item.variables ? clip(JSON.stringify(item.variables), 120) : ""}</Td>
      <Td className="text-xs">
        {item.checks?.tests && <span className="mr-2 rounded bg-slate-100 px-1.5 py-0.5">{item.checks.tests.language} tests</span>}
        {item.checks?.rubric && <span title={item.checks.rubric}>rubric: {clip(item.checks.rubric, 80)}</span>}
      </Td>
      <Td className="text-xs">
        {item.sourceEscalationId ? (
          <Link href={`/escalations/${item.sourceEscalationId}`} className="text-sky-700 hover:underline">
            escalation
          </Link>
        ) : item.sourceRunId ? (
          <Link href={`/runs/${item.sourceRunId}`} className="text-sky-700 hover:underline">
            run
          </Link>
        ) : null}
      </Td>
      <Td className="whitespace-nowrap">
        {editable && (
          <span className="flex gap-3">
            <Button variant="link" onClick={onEdit} disabled={busy} aria-label={`Edit case ${item.key}`}>
              Edit
            </Button>
            <Button variant="danger" onClick={onRemove} disabled={busy} aria-label={`Remove case ${item.key}`}>
              Remove
            </Button>
          </span>
        )}
      </Td>
    </tr>
  );
}
