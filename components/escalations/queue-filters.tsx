"use client";

import { DayInput } from "@/components/ui/day-input";
import { SearchInput } from "@/components/ui/search-input";
import { ESCALATION_SORTS, ESCALATION_STATUSES, OFFERED_TO } from "@/server/services/escalations/list-escalations";

export const AGE_FILTERS = {
  any: { label: "any age", range: {} },
  lt1h: { label: "under 1 hour", range: { maxAgeMinutes: 60 } },
  gt1h: { label: "over 1 hour", range: { minAgeMinutes: 60 } },
  gt1d: { label: "over 1 day", range: { minAgeMinutes: 24 * 60 } },
} as const;
export type AgeFilter = keyof typeof AGE_FILTERS;

/** The queue's filters as they appear in its URL (search and page are added by the list state). */
export const QUEUE_FILTERS = {
  status: { kind: "choice", values: [...ESCALATION_STATUSES, "all"], default: "pending" },
  workflow: { kind: "text" },
  step: { kind: "text" },
  age: { kind: "choice", values: Object.keys(AGE_FILTERS), default: "any" },
  sort: { kind: "choice", values: ESCALATION_SORTS, default: "oldest" },
  offered: { kind: "choice", values: OFFERED_TO, default: "anyone" },
  from: { kind: "day" },
  to: { kind: "day" },
} as const;

export interface QueueFilterValues {
  status: (typeof ESCALATION_STATUSES)[number] | "all";
  workflow: string;
  step: string;
  age: AgeFilter;
  sort: (typeof ESCALATION_SORTS)[number];
  /** "mine": offered to one of my reviewer groups or to every reviewer. */
  offered: (typeof OFFERED_TO)[number];
  /** Raised on or after / on or before these days (YYYY-MM-DD, "" for any). */
  from: string;
  to: string;
}

const selectClass = "rounded-md border border-slate-300 px-2 py-1.5 text-sm font-normal";

/** The queue's filter bar; the values live in the page's URL (components/lists/use-list-state.ts). */
export function QueueFilters({ values, workflows, onChange }: { values: QueueFilterValues; workflows: string[]; onChange: (next: QueueFilterValues) => void }) {
  const set = <K extends keyof QueueFilterValues>(key: K, value: QueueFilterValues[K]) => onChange({ ...values, [key]: value });
  return (
    <div className="flex flex-wrap items-end gap-3">
      <label className="flex flex-col gap-1 text-sm font-medium">
        Status
        <select value={values.status} onChange={(event) => set("status", event.target.value as QueueFilterValues["status"])} className={selectClass}>
          {ESCALATION_STATUSES.map((status) => (
            <option key={status}>{status}</option>
          ))}
          <option value="all">all</option>
        </select>
      </label>
      <label className="flex flex-col gap-1 text-sm font-medium">
        Workflow
        <select value={values.workflow} onChange={(event) => set("workflow", event.target.value)} className={selectClass}>
          <option value="">all</option>
          {workflows.map((name) => (
            <option key={name}>{name}</option>
          ))}
        </select>
      </label>
      <SearchInput label="Step" value={values.step} onSearch={(step) => set("step", step)} hint="any step" />
      <label className="flex flex-col gap-1 text-sm font-medium">
        Age
        <select value={values.age} onChange={(event) => set("age", event.target.value as AgeFilter)} className={selectClass}>
          {Object.entries(AGE_FILTERS).map(([key, filter]) => (
            <option key={key} value={key}>
              {filter.label}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col gap-1 text-sm font-medium">
        Offered to
        <select value={values.offered} onChange={(event) => set("offered", event.target.value as QueueFilterValues["offered"])} className={selectClass}>
          <option value="anyone">anyone</option>
          <option value="mine">my groups</option>
        </select>
      </label>
      <DayInput label="From" value={values.from} onChange={(day) => set("from", day)} />
      <DayInput label="To" value={values.to} onChange={(day) => set("to", day)} />
      <label className="flex flex-col gap-1 text-sm font-medium">
        Sort
        <select value={values.sort} onChange={(event) => set("sort", event.target.value as QueueFilterValues["sort"])} className={selectClass}>
          <option value="oldest">oldest first</option>
          <option value="newest">newest first</option>
          <option value="deadline">deadline first</option>
        </select>
      </label>
    </div>
  );
}
