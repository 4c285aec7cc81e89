"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useMemo, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { dayRange } from "@/components/lists/list-state";
import { useListState } from "@/components/lists/use-list-state";
import { formatTokens, formatUsd } from "@/server/usage/format-usage";
import { useTRPC } from "@/components/providers/trpc-provider";
import { Pagination } from "@/components/ui/pagination";
import { SearchInput } from "@/components/ui/search-input";
import { RelativeTime } from "@/components/ui/relative-time";
import type { RouterOutputs } from "@/server/api/root";
import { DecisionDialog, type QuickDecision } from "./decision-dialog";
import { AssignControl } from "./assign-control";
import { describeDecision } from "./describe-decision";
import { approvalRefusal } from "@/server/services/escalations/seen-code-rule";
import { AGE_FILTERS, QUEUE_FILTERS, QueueFilters, type QueueFilterValues } from "./queue-filters";
import { isTypingTarget, queueCommand } from "./queue-keys";
import { TimeLeft } from "./time-left";
import { EscalationReachNote } from "./escalation-reach";

type QueueItem = RouterOutputs["escalation"]["list"]["items"][number];
/** Often enough that a new escalation shows up while the reviewer looks at the queue. */
const LIVE_REFRESH_MS = 2_000;
const STATUS_CLASS: Record<string, string> = {
  pending: "bg-amber-100 text-amber-800",
  approved: "bg-emerald-100 text-emerald-800",
  rejected: "bg-red-100 text-red-800",
  expired: "bg-slate-200 text-slate-700",
  cancelled: "bg-slate-200 text-slate-700",
};

/** The review queue: live, filtered, sorted, claimable, and driven from the keyboard. */
export function EscalationQueue({ viewer }: { viewer: { email: string; mayDecide: boolean } }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const { state: list, update } = useListState(QUEUE_FILTERS);
  // The list state keeps only values QUEUE_FILTERS allows, so these are the queue's own.
  const filters = list.filters as QueueFilterValues;
  const setFilters = (next: Partial<QueueFilterValues>) => update({ filters: next });
  // The selection follows the escalation, not its row: the live list reorders as items arrive.
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [quick, setQuick] = useState<{ decision: QuickDecision; item: QueueItem } | null>(null);
  const workflows = useQuery(trpc.workflow.list.queryOptions({ includeArchived: true }));
  const queue = useQuery(
    trpc.escalation.list.queryOptions(
      {
        status: filters.status,
        workflow: filters.workflow || undefined,
        step: filters.step.trim() || undefined,
        sort: filters.sort,
        offeredTo: filters.offered,
        ...AGE_FILTERS[filters.age].range,
        ...dayRange(filters.from, filters.to),
        search: list.search || undefined,
        page: list.page,
        pageSize: list.pageSize,
      },
      { refetchInterval: LIVE_REFRESH_MS, placeholderData: (previous) => previous },
    ),
  );
  const items = useMemo(() => queue.data?.items ?? [], [queue.data]);
  const selected = items.findIndex((item) => item.id === selectedId);
  const setSelected = (index: number) => setSelectedId(items[index]?.id ?? null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.escalation.list.pathKey() });
  const claim = useMutation(trpc.escalation.claim.mutationOptions({ onSettled: refresh }));
  const assign = useMutation(trpc.escalation.assign.mutationOptions({ onSettled: refresh }));
  const reviewers = useQuery(trpc.escalation.reviewers.queryOptions(undefined, { enabled: viewer.mayDecide, staleTime: 60_000 }));
  const decide = useMutation(
    trpc.escalation.decide.mutationOptions({
      onSuccess: () => setQuick(null),
      onSettled: refresh,
    }),
  );
  // The mutation's result is a new object every render; its reset is stable, so the key listener is not re-added each time.
  const resetDecision = decide.reset;

  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (quick || isTypingTarget(event.target)) return;
      const command = queueCommand(event.key, selected, items.length, event.metaKey || event.ctrlKey || event.altKey);
      if (!command) return;
      event.preventDefault();
      const item = items[command.index]!;
      if (command.kind === "select") setSelectedId(item.id);
      else if (command.kind === "open") router.push(`/escalations/${item.id}`);
      // A budget escalation is decided by a grant on its page, not by approve/reject keys.
      else if (item.kind === "budget") router.push(`/escalations/${item.id}`);
      else if (viewer.mayDecide && item.status === "pending") {
        resetDecision();
        setQuick({ decision: command.kind, item });
      }
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [items, selected, quick, router, viewer.mayDecide, resetDecision]);

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end gap-3" role="search" aria-label="Find escalations">
        <SearchInput value={list.search} onSearch={(search) => { update({ search }); setSelected(-1); }} hint="workflow, step, specification or id" />
      </div>
      <QueueFilters values={filters} workflows={workflows.data?.map((workflow) => workflow.name) ?? []} onChange={(next) => { setFilters(next); setSelected(-1); }} />
      {queue.data && (
        <ul aria-label="Counts by status" className="flex flex-wrap gap-2 text-sm">
          {Object.entries(queue.data.counts).map(([status, count]) => (
            <li key={status}>
              <button
                type="button"
                onClick={() => setFilters({ ...filters, status: status as QueueFilterValues["status"] })}
                aria-pressed={filters.status === status}
                className={`rounded-full px-3 py-1 font-medium ${filters.status === status ? "ring-2 ring-slate-900 " : ""}${STATUS_CLASS[status] ?? ""}`}
                data-testid={`count-${status}`}
              >
                {status} <span className="tabular-nums">{count}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {queue.error && <p role="alert" className="text-sm text-red-700">{queue.error.message}</p>}
      {(claim.error ?? assign.error) && (
        <p role="alert" className="text-sm text-red-700">
          {(claim.error ?? assign.error)?.message}
        </p>
      )}
      <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
        <table className="min-w-full text-left text-sm" aria-label="Escalations">
          <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
            <tr>
              <th className="px-4 py-2 font-medium">Escalation</th>
              <th className="px-4 py-2 font-medium">Status</th>
              <th className="px-4 py-2 font-medium">Raised</th>
              <th className="px-4 py-2 font-medium">Deadline or decision</th>
              <th className="px-4 py-2 font-medium">Reviewer</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {items.map((item, index) => (
              <tr
                key={item.id}
                data-testid="escalation-row"
                data-escalation-id={item.id}
                data-run-id={item.runId}
                aria-selected={index === selected}
                onClick={() => setSelected(index)}
                className={index === selected ? "bg-sky-50 outline outline-2 -outline-offset-2 outline-sky-500" : "hover:bg-slate-50"}
              >
                <td className="max-w-md px-4 py-2">
                  <Link href={`/escalations/${item.id}`} className="font-medium text-slate-900 hover:underline">
                    {item.workflow ?? "unknown workflow"} · {item.stepName}
                  </Link>
                  <p className="truncate text-xs text-slate-500" title={item.specification}>
                    {item.specification}
                  </p>
                  <p className={`truncate text-xs ${item.kind === "budget" ? "text-amber-800" : "text-red-800"}`} title={item.feedback}>
                    {item.kind === "budget" ? "budget" : item.guardId}: {item.feedback}
                  </p>
                  <p className="text-xs text-slate-500" data-testid="run-usage">
                    run so far: {formatTokens(item.runTokens)} tokens · {formatUsd(item.runCostUsd)}
                  </p>
                </td>
                <td className="px-4 py-2">
                  <span className={`rounded px-2 py-0.5 text-xs font-medium ${STATUS_CLASS[item.status] ?? ""}`}>{item.status}</span>
                  {item.decidedBy && <p className="mt-1 text-xs text-slate-500">by {item.decidedBy}</p>}
                  {item.quorum && (
                    <p className="mt-1 text-xs text-slate-600" data-testid="quorum-summary" title={item.status === "pending" ? (item.quorum.approvalRefusal ?? undefined) : undefined}>
                      {item.quorum.summary}
                      {item.status === "pending" && item.quorum.yourVote && <span className="block text-slate-500">you {item.quorum.yourVote === "approve" ? "approved" : "rejected"}</span>}
                      {item.status === "pending" && !item.quorum.yourVote && item.quorum.approvalRefusal && <span className="block text-amber-700">you cannot approve: {item.quorum.approvalRefusal}</span>}
                    </p>
                  )}
                  {item.status === "pending" && viewer.mayDecide && approvalRefusal(item) && (
                    <p className="mt-1 text-xs text-amber-700" title={approvalRefusal(item) ?? undefined} data-testid="unseen-code">
                      code not seen yet
                    </p>
                  )}
                </td>
                <td className="px-4 py-2 text-slate-600">
                  <RelativeTime date={item.createdAt} />
                </td>
                <td className="max-w-xs px-4 py-2">
                  {item.status === "pending" ? (
                    <>
                      <TimeLeft expiresAt={item.expiresAt} />
                      <EscalationReachNote reach={item.reach} compact />
                    </>
                  ) : (
                    <span data-testid="decided" className="line-clamp-2 text-xs text-slate-600" title={describeDecision(item) ?? undefined}>
                      {describeDecision(item)}
                    </span>
                  )}
                </td>
                <td className="space-y-1 px-4 py-2">
                  {item.claimedBy ? (
                    <span data-testid="claimed-by" className="block text-slate-700">
                      {item.claimedBy === viewer.email ? "you" : item.claimedBy}
                    </span>
                  ) : item.status === "pending" && viewer.mayDecide ? (
                    <button
                      type="button"
                      onClick={(event) => {
                        event.stopPropagation();
                        claim.mutate({ escalationId: item.id });
                      }}
                      className="rounded-md border border-slate-300 px-2 py-1 text-xs font-medium hover:bg-slate-100"
                    >
                      Claim
                    </button>
                  ) : (
                    <span className="text-slate-400">unclaimed</span>
                  )}
                  {item.status === "pending" && viewer.mayDecide && reviewers.data && (
                    <AssignControl
                      holder={item.claimedBy}
                      reviewers={reviewers.data}
                      disabled={assign.isPending}
                      onAssign={(assignee) => assign.mutate({ escalationId: item.id, assignee })}
                    />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {items.length === 0 && !queue.isPending && <p className="px-4 py-6 text-sm text-slate-500">No escalations match. New ones appear here as runs escalate.</p>}
      </div>
      {queue.data && (
        <Pagination
          noun="escalations"
          page={queue.data.page}
          pageCount={queue.data.pageCount}
          pageSize={queue.data.pageSize}
          total={queue.data.matching}
          onPage={(page) => { update({ page }); setSelected(-1); }}
          onPageSize={(pageSize) => update({ pageSize })}
        />
      )}
      <p className="text-xs text-slate-500">
        Keys: <kbd>j</kbd>/<kbd>k</kbd> move, <kbd>Enter</kbd> opens{viewer.mayDecide ? <>, <kbd>a</kbd> approves, <kbd>r</kbd> rejects</> : null}. The list refreshes every {LIVE_REFRESH_MS / 1000} s.
      </p>
      {quick && (
        <DecisionDialog
          decision={quick.decision}
          subject={`${quick.item.workflow ?? "run"} · ${quick.item.stepName}`}
          pending={decide.isPending}
          error={decide.error?.message ?? null}
          refusal={
            // A quorum's refusal first (you started the run, you voted): no review changes it.
            quorumRefusal(quick.item, quick.decision) ? (
              <>
                You cannot {quick.decision === "approve" ? "approve" : "vote"}: {quorumRefusal(quick.item, quick.decision)}.
              </>
            ) : quick.decision === "approve" && approvalRefusal(quick.item) ? (
              <>
                {approvalRefusal(quick.item)}.{" "}
                <Link href={`/escalations/${quick.item.id}`} className="font-medium underline">
                  Open the review page
                </Link>
              </>
            ) : null
          }
          onCancel={() => setQuick(null)}
          onConfirm={(comment) =>
            decide.mutate({ escalationId: quick.item.id, contentHash: quick.item.contentHash ?? "", decision: quick.decision, ...(comment.trim() ? { comment: comment.trim() } : {}) })
          }
        />
      )}
    </div>
  );
}

/** Why the escalation's quorum refuses the reviewer this decision (the server refuses it too); null when it does not. */
function quorumRefusal(item: { status: string; quorum: { yourVote: string | null; approvalRefusal: string | null } | null }, decision: string): string | null {
  if (item.status !== "pending" || !item.quorum) return null;
  // Having voted refuses any decision; the starter is refused approvals only (quorum-view.ts puts either in approvalRefusal).
  return decision === "approve" || item.quorum.yourVote ? item.quorum.approvalRefusal : null;
}
