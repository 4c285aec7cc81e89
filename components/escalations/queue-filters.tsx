"use client";

import { ESCALATION_STATUSES, type ESCALATION_SORTS } from "@/server/services/escalations/list-escalations";

export const AGE_FILTERS = {
  any: { label: "any age", range: {} },
  lt1h: { label: "under 1 hour", range: { maxAgeMinutes: 60 } },
  gt1h: { label: "over 1 hour", range: { minAgeMinutes: 60 } },
  gt1d: { label: "over 1 day", range: { minAgeMinutes: 24 * 60 } },
} as const;
export type AgeFilter = keyof typeof AGE_FILTERS;

export interface QueueFilterValues {
  status: (typeof ESCALATION_STATUSES)[number] | "all";
  workflow: string;
  step: string;
  age: AgeFilter;
  sort: (typeof ESCALATION_SORTS)[number];
}

const selectClass = "rounded-md border border-slate-300 px-2 py-1.5 text-sm font-normal";

/** The queue's filter bar; every value lives in the page's URL-independent state. */
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
      <label className="flex flex-col gap-1 text-sm font-medium">
        Step
        <input value={values.step} onChange={(event) => set("step", event.target.value)} placeholder="any step" className={`${selectClass} w-36`} />
      </label>
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
