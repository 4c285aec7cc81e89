"use client";

import { useEffect, useRef, useState, type ReactNode } from "react";

export type QuickDecision = "approve" | "reject";

/**
 * Confirms a decision made from the keyboard (the queue's or the review page's): Enter confirms,
 * Escape cancels. A reject takes an optional reason, which the run's failure will quote. With a
 * `refusal` the decision cannot be confirmed here, and the dialog says why.
 */
export function DecisionDialog({
  decision,
  subject,
  pending,
  error,
  refusal = null,
  note = null,
  onConfirm,
  onCancel,
}: {
  decision: QuickDecision;
  subject: string;
  pending: boolean;
  error: string | null;
  refusal?: ReactNode;
  /** What else goes with the decision (the review page's pending line comments). */
  note?: ReactNode;
  onConfirm: (comment: string) => void;
  onCancel: () => void;
}) {
  const [comment, setComment] = useState("");
  const firstField = useRef<HTMLTextAreaElement>(null);
  useEffect(() => firstField.current?.focus(), []);
  const verb = decision === "approve" ? "Approve" : "Reject";
  return (
    <div className="fixed inset-0 z-20 flex items-center justify-center bg-slate-900/40 p-4">
      <div
        role="dialog"
        aria-modal="true"
        aria-labelledby="decision-dialog-title"
        className="w-full max-w-md space-y-4 rounded-lg bg-white p-5 shadow-xl"
        onKeyDown={(event) => {
          if (event.key === "Escape") onCancel();
        }}
      >
        <h2 id="decision-dialog-title" className="text-lg font-semibold text-slate-900">
          {verb} {subject}?
        </h2>
        <form
          className="space-y-4"
          onSubmit={(event) => {
            event.preventDefault();
            if (!refusal) onConfirm(comment);
          }}
        >
          <label className="flex flex-col gap-1 text-sm font-medium text-slate-700">
            {decision === "approve" ? "Comment (optional)" : "Reason (optional)"}
            <textarea
              ref={firstField}
              value={comment}
              onChange={(event) => setComment(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === "Enter" && !event.shiftKey) {
                  event.preventDefault();
                  if (!refusal) onConfirm(comment);
                }
              }}
              rows={2}
              className="rounded-md border border-slate-300 px-2 py-1.5 text-sm font-normal"
            />
          </label>
          {note && (
            <p data-testid="decision-note" className="text-sm text-slate-700">
              {note}
            </p>
          )}
          {refusal && (
            <p id="decision-refusal" data-testid="decision-refusal" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
              {refusal}
            </p>
          )}
          {error && (
            <p role="alert" className="text-sm text-red-700">
              {error}
            </p>
          )}
          <div className="flex justify-end gap-2">
            <button type="button" onClick={onCancel} className="rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium">
              Cancel
            </button>
            <button
              type="submit"
              disabled={pending || Boolean(refusal)}
              aria-describedby={refusal ? "decision-refusal" : undefined}
              className={`rounded-md px-3 py-1.5 text-sm font-medium text-white disabled:opacity-50 ${decision === "approve" ? "bg-emerald-700 hover:bg-emerald-800" : "bg-red-700 hover:bg-red-800"}`}
            >
              {verb}
            </button>
          </div>
          <p className="text-xs text-slate-500">Enter confirms, Shift+Enter adds a line, Escape cancels.</p>
        </form>
      </div>
    </div>
  );
}
