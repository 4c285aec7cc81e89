import type { ReactNode } from "react";
import { RunStatusBadge } from "@/components/dashboard/run-status-badge";
import { OptionalTime } from "./optional-time";
import type { RunDetail } from "./types";

function Field({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="flex justify-between gap-4 py-1.5">
      <dt className="text-slate-500">{label}</dt>
      <dd className="min-w-0 text-right text-slate-900" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

const none = <span className="text-slate-400">—</span>;

/** Where the run's head stands: who holds it, until when, and what the watchdog last did. */
export function LifecyclePanel({ run }: { run: RunDetail }) {
  return (
    <dl className="divide-y divide-slate-100 px-5 py-3 text-sm" data-testid="lifecycle-panel">
      <Field label="Status">
        <RunStatusBadge status={run.status} />
      </Field>
      <Field label="State" testId="lifecycle-state">
        {run.currentState === null && run.currentStep === null && none}
        {run.currentState && <span className="font-mono text-xs">{run.currentState}</span>}
        {run.currentStep && <span className="ml-1.5 text-xs text-slate-500">step {run.currentStep}</span>}
      </Field>
      <Field label="Attempts">
        <span className="tabular-nums">{run.attemptCount}</span>
      </Field>
      <Field label="Epoch" testId="lifecycle-epoch">
        <span className="tabular-nums">{run.epoch}</span>
      </Field>
      <Field label="Lease owner" testId="lifecycle-lease-owner">
        {run.leaseOwner ? <code className="font-mono text-xs">{run.leaseOwner}</code> : none}
      </Field>
      <Field label="Lease expires">
        <OptionalTime date={run.leaseExpiresAt} />
      </Field>
      <Field label="Resume deadline">
        <OptionalTime date={run.resumeDeadline} />
      </Field>
      <Field label="Watchdog" testId="lifecycle-watchdog-note">
        {run.watchdogNote ? <span className="whitespace-pre-wrap">{run.watchdogNote}</span> : none}
      </Field>
      <Field label="Created">
        <OptionalTime date={run.createdAt} />
      </Field>
      <Field label="Started">
        <OptionalTime date={run.startedAt} />
      </Field>
      <Field label="Finished">
        <OptionalTime date={run.finishedAt} />
      </Field>
    </dl>
  );
}
