"use client";

import { Fragment, useState } from "react";
import { codeLineAttributes, LineCode, LineNumber } from "@/components/code/code-line";
import { tokenizeLines } from "@/components/code/tokenize";
import type { RouterOutputs } from "@/server/api/root";
import { describeLines, LINE_COMMENT_LIMITS, type LineComment } from "@/server/review-comments/line-comment";
import { DECISION_VERBS } from "./describe-decision";
import type { PendingComments } from "./use-pending-comments";

type SubmittedComment = Extract<RouterOutputs["escalation"]["get"], { kind: "guard" }>["comments"][number];

interface Selection {
  readonly start: number;
  readonly end: number;
}

/**
 * The escalated artifact with comments on its lines, as a pull request review has them. With
 * `pending` (a reviewer who may decide), the + beside a line opens a comment on it, Shift+click
 * on another line's + makes it a range, and a comment may suggest what replaces those lines;
 * drafts show under their last line until a decision submits them. `submitted` are the comments
 * a decision was made with, read-only. `markedLine` is the line the guard objected to.
 */
export function CommentableCode({
  code,
  language,
  markedLine,
  label,
  pending,
  submitted,
}: {
  code: string;
  language: string | null;
  markedLine: number | null;
  label: string;
  pending: PendingComments | null;
  submitted: readonly SubmittedComment[];
}) {
  const lines = tokenizeLines(code, language);
  const texts = code.split("\n");
  const [selection, setSelection] = useState<Selection | null>(null);
  const [anchor, setAnchor] = useState<number | null>(null);
  const select = (line: number, extend: boolean) => {
    if (extend && anchor !== null) {
      setSelection({ start: Math.min(anchor, line), end: Math.max(anchor, line) });
    } else {
      setAnchor(line);
      setSelection({ start: line, end: line });
    }
  };
  const endingAt = <T extends { line: number; endLine?: number | null }>(comments: readonly T[], line: number) => comments.filter((comment) => (comment.endLine ?? comment.line) === line);
  return (
    <div aria-label={label} role="region" data-testid="code-block" data-language={language ?? undefined} className="overflow-x-auto rounded-md bg-slate-900 py-3 font-mono text-xs leading-5 text-slate-100">
      <div className="w-max min-w-full">
        {lines.map((tokens, index) => {
          const line = index + 1;
          const marked = markedLine === line;
          const selected = selection !== null && line >= selection.start && line <= selection.end;
          return (
            <Fragment key={line}>
              <div className={`group flex ${marked ? "bg-red-900/70" : selected ? "bg-sky-900/70" : ""}`} {...codeLineAttributes(line, marked)} data-selected={selected ? "true" : undefined}>
                {pending && (
                  <button
                    type="button"
                    // Not "Comment on ...": the decision panel's field is found by the label "Comment".
                    aria-label={`Review line ${line}`}
                    title="Comment on this line (Shift+click another line for a range)"
                    onClick={(event) => select(line, event.shiftKey)}
                    className="w-5 shrink-0 select-none text-center font-sans font-bold text-sky-300 opacity-0 hover:text-sky-100 focus:opacity-100 group-hover:opacity-100"
                  >
                    +
                  </button>
                )}
                <LineNumber line={line} marked={marked} layout="w-12 shrink-0" />
                <LineCode tokens={tokens} />
              </div>
              {endingAt(submitted, line).map((comment) => (
                <CommentCard key={comment.id} comment={comment} heading={`${comment.author}${comment.decision && DECISION_VERBS[comment.decision] ? ` · ${DECISION_VERBS[comment.decision]}` : ""}`} testId="review-comment" />
              ))}
              {pending &&
                endingAt(pending.comments, line).map((comment) => (
                  <CommentCard key={comment.id} comment={comment} heading="Pending: goes with your decision" testId="pending-comment" onRemove={() => pending.remove(comment.id)} />
                ))}
              {pending && selection?.end === line && (
                <CommentForm
                  key={`${selection.start}-${selection.end}`}
                  selection={selection}
                  selectedText={texts.slice(selection.start - 1, selection.end).join("\n")}
                  onCancel={() => setSelection(null)}
                  onAdd={(comment) => {
                    pending.add(comment);
                    setSelection(null);
                  }}
                />
              )}
            </Fragment>
          );
        })}
      </div>
    </div>
  );
}

function CommentCard({ comment, heading, testId, onRemove }: { comment: Omit<LineComment, "endLine" | "suggestion"> & { endLine?: number | null; suggestion?: string | null }; heading: string; testId: string; onRemove?: () => void }) {
  const place = describeLines({ line: comment.line, ...(comment.endLine ? { endLine: comment.endLine } : {}), body: "" });
  return (
    <div data-testid={testId} data-line={comment.line} data-end-line={comment.endLine ?? comment.line} className="mx-3 my-1 max-w-3xl space-y-1 whitespace-normal rounded-md border border-slate-300 bg-white px-3 py-2 font-sans text-sm text-slate-800">
      <p className="flex flex-wrap items-center gap-x-2 text-xs text-slate-500">
        <span className="font-medium text-slate-700">{place}</span>
        <span>{heading}</span>
        {onRemove && (
          <button type="button" onClick={onRemove} className="ml-auto font-medium text-red-700 hover:underline">
            Remove
          </button>
        )}
      </p>
      {comment.body.trim() && <p className="whitespace-pre-wrap break-words">{comment.body}</p>}
      {comment.suggestion !== undefined && comment.suggestion !== null && (
        <div data-testid="suggestion">
          <p className="text-xs font-medium text-emerald-800">{comment.suggestion === "" ? "Suggested: delete these lines" : "Suggested change"}</p>
          {comment.suggestion !== "" && <pre className="overflow-x-auto rounded bg-emerald-50 px-2 py-1 font-mono text-xs text-emerald-950">{comment.suggestion}</pre>}
        </div>
      )}
    </div>
  );
}

function CommentForm({ selection, selectedText, onAdd, onCancel }: { selection: Selection; selectedText: string; onAdd: (comment: LineComment) => void; onCancel: () => void }) {
  const [body, setBody] = useState("");
  const [suggesting, setSuggesting] = useState(false);
  const [suggestion, setSuggestion] = useState(selectedText);
  const place = describeLines({ line: selection.start, ...(selection.end !== selection.start ? { endLine: selection.end } : {}), body: "" });
  const empty = body.trim() === "" && !suggesting;
  return (
    <form
      data-testid="comment-form"
      className="mx-3 my-1 max-w-3xl space-y-2 whitespace-normal rounded-md border border-sky-400 bg-white px-3 py-2 font-sans text-sm text-slate-800"
      onSubmit={(event) => {
        event.preventDefault();
        if (empty) return;
        onAdd({ line: selection.start, ...(selection.end !== selection.start ? { endLine: selection.end } : {}), body: body.trim(), ...(suggesting ? { suggestion } : {}) });
      }}
    >
      <label className="flex flex-col gap-1 text-xs font-medium text-slate-700">
        {`Remark on ${place}`}
        <textarea autoFocus value={body} onChange={(event) => setBody(event.target.value)} maxLength={LINE_COMMENT_LIMITS.body} rows={2} className="rounded-md border border-slate-300 px-2 py-1 text-sm font-normal" />
      </label>
      {suggesting ? (
        <label className="flex flex-col gap-1 text-xs font-medium text-slate-700">
          {`Suggested change (replaces ${place}; leave empty to delete them)`}
          <textarea
            value={suggestion}
            onChange={(event) => setSuggestion(event.target.value)}
            maxLength={LINE_COMMENT_LIMITS.suggestion}
            rows={Math.min(12, suggestion.split("\n").length + 1)}
            spellCheck={false}
            className="rounded-md border border-slate-300 px-2 py-1 font-mono text-xs font-normal"
          />
        </label>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <button type="submit" disabled={empty} className="rounded-md bg-slate-900 px-2.5 py-1 text-xs font-medium text-white disabled:opacity-50">
          Add comment
        </button>
        <button type="button" onClick={() => setSuggesting((on) => !on)} className="rounded-md border border-emerald-700 px-2.5 py-1 text-xs font-medium text-emerald-800">
          {suggesting ? "No suggestion" : "Suggest a change"}
        </button>
        <button type="button" onClick={onCancel} className="rounded-md border border-slate-300 px-2.5 py-1 text-xs font-medium">
          Cancel
        </button>
      </div>
    </form>
  );
}
