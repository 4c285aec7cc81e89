import Link from "next/link";
import { EmptyRows, Table, TableBody, TableHead, Td } from "@/components/ui/table";
import type { RouterOutputs } from "@/server/api/root";
import { describePolicy } from "./describe-policy";

type Row = Extract<RouterOutputs["routing"]["dryRun"], { ok: true }>["rows"][number];

/** Each recent escalation: where it went, and where the draft would send it (changed rows marked). */
export function DryRunTable({ rows }: { rows: readonly Row[] }) {
  if (rows.length === 0) return <EmptyRows>No escalations yet: nothing to try the draft on.</EmptyRows>;
  const changed = rows.filter((row) => row.changed).length;
  return (
    <div className="space-y-2">
      <p className="text-sm text-slate-600" data-testid="dry-run-summary">
        {changed} of {rows.length} escalation(s) would go elsewhere under the draft.
      </p>
      <Table label="Dry run">
        <TableHead columns={["Escalation", "Workflow / step", "Went", "Under the draft"]} />
        <TableBody>
          {rows.map((row) => (
            <tr key={row.escalationId} data-testid="dry-run-row" data-changed={row.changed} className={row.changed ? "bg-amber-50" : ""}>
              <Td>
                <Link href={`/escalations/${row.escalationId}`} className="font-mono underline">
                  {row.escalationId.slice(0, 8)}
                </Link>
                <div className="text-xs text-slate-500">{row.status}</div>
              </Td>
              <Td>
                {row.workflow ?? "(deleted workflow)"} / {row.step}
              </Td>
              <Td>
                {row.went ? (
                  <>
                    <span className="font-medium">{row.went.rule ?? "no routing"}</span>
                    {row.wentVersion !== null && <span className="text-xs text-slate-500"> (v{row.wentVersion})</span>}
                    <div className="text-xs text-slate-600">{describePolicy(row.went)}</div>
                  </>
                ) : (
                  <span className="text-slate-500">not routed (every reviewer)</span>
                )}
              </Td>
              <Td>
                <span className="font-medium">{row.draft.rule ?? "built-in (a budget escalation)"}</span>
                {row.changed && <span className="ml-2 rounded bg-amber-200 px-1.5 text-xs text-amber-900">changed</span>}
                <div className="text-xs text-slate-600">{describePolicy(row.draft)}</div>
              </Td>
            </tr>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}
