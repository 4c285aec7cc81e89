"use client";

import { useId, useState } from "react";
import { useRouter } from "next/navigation";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";

/**
 * The edit a fork starts from: the feedback and prompt the attempt got, prefilled, for the person
 * to change. Only what was changed is sent: unchanged feedback keeps the recorded history, and an
 * unchanged prompt is rendered again from the (edited) feedback.
 */
export function ForkForm({ runId, artifactId, onCancel }: { runId: string; artifactId: string; onCancel: () => void }) {
  const trpc = useTRPC();
  const router = useRouter();
  const point = useQuery(trpc.run.forkPoint.queryOptions({ id: runId, artifactId }));
  const fork = useMutation(trpc.run.fork.mutationOptions({ onSuccess: ({ id }) => router.push(`/runs/${id}`) }));
  const [feedback, setFeedback] = useState<string | null>(null);
  const [prompt, setPrompt] = useState<string | null>(null);
  const feedbackId = useId();
  const promptId = useId();

  if (point.isPending) return <p className="text-sm text-slate-600">Loading the attempt…</p>;
  if (point.isError) {
    return (
      <p role="alert" className="text-sm text-red-700">
        {point.error.message}
      </p>
    );
  }
  const recorded = point.data;
  const feedbackValue = feedback ?? recorded.feedback;
  const promptValue = prompt ?? recorded.prompt ?? "";
  const feedbackChanged = feedbackValue !== recorded.feedback;
  const promptChanged = promptValue !== (recorded.prompt ?? "") && promptValue.trim() !== "";

  return (
    <form
      className="space-y-4"
      onSubmit={(event) => {
        event.preventDefault();
        fork.mutate({ id: runId, artifactId, feedback: feedbackChanged ? feedbackValue : undefined, prompt: promptChanged ? promptValue : undefined });
      }}
    >
      {recorded.generator === "replay" && (
        <p role="note" data-testid="fork-replay-warning" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          This attempt was replayed from a cassette. A fork replays the same cassette, which answers with the same recorded output whatever you write
          here; the guards judge it again. To see what an edit changes, run the workflow with the configured model instead.
        </p>
      )}
      <p className="text-sm text-slate-600">
        A new run of the same version, specification and generator. Everything before <code className="font-mono">{recorded.attemptKey}</code> is reused from this
        run without calling anything again; this attempt is generated anew from what you write here, and the run goes on from there.
      </p>
      <div className="space-y-1">
        <label htmlFor={feedbackId} className="block text-sm font-medium text-slate-800">
          Feedback for this attempt
        </label>
        <textarea
          id={feedbackId}
          value={feedbackValue}
          onChange={(event) => setFeedback(event.target.value)}
          rows={4}
          placeholder={recorded.attempt === 1 ? "A first attempt gets no feedback; anything written here is added to its prompt's history." : undefined}
          className="w-full rounded-md border border-slate-300 p-2 font-mono text-xs"
        />
      </div>
      <div className="space-y-1">
        <label htmlFor={promptId} className="block text-sm font-medium text-slate-800">
          Prompt
        </label>
        <textarea id={promptId} value={promptValue} onChange={(event) => setPrompt(event.target.value)} rows={8} className="w-full rounded-md border border-slate-300 p-2 font-mono text-xs" />
        <p className="text-xs text-slate-500">
          {promptChanged ? "The edited prompt is sent as it is" + (feedbackChanged ? "; the edited feedback then only shows in the history." : ".") : "Left as it is, the prompt is rendered again with the feedback above."}
        </p>
      </div>
      {fork.error && (
        <p role="alert" className="text-sm text-red-700">
          {fork.error.message}
        </p>
      )}
      <div className="flex justify-end gap-2">
        <button type="button" onClick={onCancel} className="rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50">
          Cancel
        </button>
        <button type="submit" disabled={fork.isPending} className="rounded-md bg-slate-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-slate-700 disabled:opacity-50">
          Start fork
        </button>
      </div>
    </form>
  );
}
