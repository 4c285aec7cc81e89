"use client";

import { useEffect, useRef } from "react";
import { useSubscription } from "@trpc/tanstack-react-query";
import { SectionCard } from "@/components/dashboard/section-card";
import { useTRPC } from "@/components/providers/trpc-provider";

/**
 * The text of the model call in flight as its tokens stream, from the worker (perhaps another
 * process) through the run.liveCall subscription. Shown only while a call is streaming.
 */
export function LiveCallPanel({ runId, live }: { runId: string; live: boolean }) {
  const trpc = useTRPC();
  const stream = useSubscription(trpc.run.liveCall.subscriptionOptions({ id: runId }, { enabled: live }));
  const call = live ? stream.data : null;
  const textRef = useRef<HTMLPreElement>(null);
  // Follow the end of the text as it grows, like a terminal.
  useEffect(() => {
    const element = textRef.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [call?.text]);
  if (!call) return null;
  return (
    <SectionCard id="live-call" title="Model call in flight">
      <div className="space-y-2 px-5 py-4" data-testid="live-call" data-step={call.stepName} data-attempt={call.attempt}>
        <p className="text-xs text-slate-500">
          <code className="font-mono">{call.stepName}</code>, attempt {call.attempt}: streaming…
        </p>
        <pre ref={textRef} aria-live="off" aria-label="Streamed tokens" data-testid="live-call-text" className="max-h-80 overflow-auto whitespace-pre-wrap break-words rounded-md bg-slate-900 p-3 font-mono text-xs leading-5 text-slate-100">
          {call.text}
        </pre>
      </div>
    </SectionCard>
  );
}
