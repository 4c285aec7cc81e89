"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { dayRange } from "@/components/lists/list-state";
import { useListState } from "@/components/lists/use-list-state";
import { useTRPC } from "@/components/providers/trpc-provider";
import { DayInput } from "@/components/ui/day-input";
import { Pagination } from "@/components/ui/pagination";
import { SearchInput } from "@/components/ui/search-input";
import { Select } from "@/components/ui/select";
import { EmptyRows, Table, TableBody, TableHead, Td } from "@/components/ui/table";
import type { RouterOutputs } from "@/server/api/root";
import { describeAuditEvent } from "./describe-audit-event";

type AuditEvent = RouterOutputs["admin"]["audit"]["items"][number];

/** Kinds first (every action of the kind), then single actions. */
const ACTIONS = [
  { value: "sign_in", label: "sign-ins (all)" },
  { value: "sign_in.failed", label: "failed sign-ins" },
  { value: "sign_out", label: "sign-outs" },
  { value: "user", label: "users (all)" },
  { value: "user.password_reset", label: "password resets" },
  { value: "user.password_changed", label: "password changes" },
  { value: "token", label: "API tokens" },
  { value: "workflow", label: "workflows" },
  { value: "escalation", label: "escalations" },
] as const;

const AUDIT_FILTERS = {
  action: { kind: "choice", values: ACTIONS.map((action) => action.value) },
  actor: { kind: "text", maxLength: 320 },
  from: { kind: "day" },
  to: { kind: "day" },
} as const;

function RawDetail({ event }: { event: AuditEvent }) {
  return (
    <details className="mt-1 text-xs text-slate-500">
      <summary className="cursor-pointer select-none">raw</summary>
      <pre className="mt-1 max-w-full overflow-x-auto rounded bg-slate-50 p-2 font-mono whitespace-pre-wrap break-all text-slate-700">
        {JSON.stringify({ action: event.action, target: event.target, detail: event.detail, ip: event.ip }, null, 2)}
      </pre>
    </details>
  );
}

function When({ at }: { at: Date }) {
  return <time dateTime={at.toISOString()}>{at.toLocaleString()}</time>;
}

/** The append-only audit log, newest first: each event as a sentence, filtered in the URL; cards on a phone. */
export function AuditLog() {
  const trpc = useTRPC();
  const { state, update } = useListState(AUDIT_FILTERS);
  const { action, actor, from, to } = state.filters;
  const events = useQuery(
    trpc.admin.audit.queryOptions(
      { search: state.search || undefined, action: action || undefined, actor: actor || undefined, ...dayRange(from, to), page: state.page, pageSize: state.pageSize },
      { placeholderData: keepPreviousData },
    ),
  );
  const items = events.data?.items ?? [];
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end gap-3" role="search" aria-label="Find audit events">
        <SearchInput value={state.search} onSearch={(search) => update({ search })} hint="who, action or target" />
        <Select label="Action" value={action} onChange={(event) => update({ filters: { action: event.target.value } })} options={[{ value: "", label: "all" }, ...ACTIONS]} />
        <SearchInput value={actor} onSearch={(text) => update({ filters: { actor: text } })} label="Who" hint="exact email" maxLength={320} />
        <DayInput label="From" value={from} onChange={(day) => update({ filters: { from: day } })} />
        <DayInput label="To" value={to} onChange={(day) => update({ filters: { to: day } })} />
      </div>
      {events.error && <p role="alert" className="text-sm text-red-700">{events.error.message}</p>}

      {/* Phones: one card per event. */}
      <ul className="space-y-2 sm:hidden" aria-label="Audit events">
        {items.map((event) => (
          <li key={event.id} className="rounded-lg border border-slate-200 bg-white p-3 text-sm" data-testid="audit-card">
            <p className="text-slate-900">{describeAuditEvent(event)}</p>
            <p className="mt-1 text-xs text-slate-500">
              <When at={event.at} /> · <span className="font-mono">{event.action}</span>
              {event.ip ? ` · ${event.ip}` : ""}
            </p>
            <RawDetail event={event} />
          </li>
        ))}
      </ul>

      <Table label="Audit log" className="hidden sm:block">
        <TableHead columns={["When", "What happened", "Action", "From"]} />
        <TableBody>
          {items.map((event) => (
            <tr key={event.id} data-testid="audit-row">
              <Td className="whitespace-nowrap text-slate-600">
                <When at={event.at} />
              </Td>
              <Td className="min-w-72">
                <p className="text-slate-900">{describeAuditEvent(event)}</p>
                <RawDetail event={event} />
              </Td>
              <Td className="font-mono text-xs whitespace-nowrap text-slate-600">{event.action}</Td>
              <Td className="font-mono text-xs text-slate-500">{event.ip ?? ""}</Td>
            </tr>
          ))}
        </TableBody>
      </Table>
      {items.length === 0 && !events.isPending && <EmptyRows>No events match.</EmptyRows>}
      {events.data && (
        <Pagination
          noun="events"
          page={events.data.page}
          pageCount={events.data.pageCount}
          pageSize={events.data.pageSize}
          total={events.data.total}
          onPage={(page) => update({ page })}
          onPageSize={(pageSize) => update({ pageSize })}
        />
      )}
    </div>
  );
}
