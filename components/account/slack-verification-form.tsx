"use client";

import { type FormEvent } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";
import { Button } from "@/components/ui/button";
import { fieldClass } from "@/components/ui/select";

export interface SlackVerificationState {
  readonly slackUserId: string | null;
  readonly pendingSlackUserId: string | null;
  readonly codeExpiresAt: Date | null;
  readonly verificationAvailable: boolean;
}

const time = (at: Date) => at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });

/**
 * Proving the member id entered above is yours: a code goes to it by Slack direct message and is
 * typed back here. Until then the id does nothing (no clicks act as you, no messages are sent).
 */
export function SlackVerificationForm({ state }: { state: SlackVerificationState }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.session.slackNotifications.queryKey() });
  const send = useMutation(trpc.session.sendSlackVerificationCode.mutationOptions({ onSuccess: refresh }));
  const confirm = useMutation(trpc.session.confirmSlackVerificationCode.mutationOptions({ onSuccess: refresh }));

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    send.reset();
    confirm.mutate({ code: String(new FormData(event.currentTarget).get("code") ?? "") });
  }

  const pending = state.pendingSlackUserId;
  if (!pending) {
    if (!state.slackUserId) return null;
    return (
      <p role="status" aria-label="Slack verification" className="max-w-md text-sm text-emerald-700">
        {confirm.isSuccess ? "Verified. " : ""}
        {state.slackUserId} is verified as your Slack account.
      </p>
    );
  }
  return (
    <form onSubmit={submit} className="max-w-md space-y-3 rounded-lg border border-amber-300 bg-amber-50 p-4" aria-label="Verify your Slack member id">
      <p className="text-sm text-slate-800">
        <strong>{pending}</strong> is not verified yet: until you confirm it is yours, Slack buttons clicked by it do not act as you and no direct messages go to it.
        {state.slackUserId ? ` ${state.slackUserId}, verified, stays in use until then.` : ""}
      </p>
      {!state.verificationAvailable ? (
        <p role="note" className="text-sm text-slate-700">
          Verification needs the Dualstate Slack app (DUALSTATE_SLACK_BOT_TOKEN), which this server does not have: nothing is sent. Ask an admin.
        </p>
      ) : (
        <>
          <Button onClick={() => (confirm.reset(), send.mutate())} disabled={send.isPending}>
            Send code to Slack
          </Button>
          {state.codeExpiresAt ? <p className="text-xs text-slate-600">A code was sent to {pending} by Slack direct message; it works until {time(state.codeExpiresAt)}, once.</p> : null}
          <label className="flex flex-col gap-1 text-sm font-medium">
            Code from Slack
            <input name="code" placeholder="7KX2-M9QD" maxLength={20} autoComplete="one-time-code" className={fieldClass} />
          </label>
          <Button type="submit" variant="primary" disabled={confirm.isPending}>
            Confirm code
          </Button>
        </>
      )}
      {send.error || confirm.error ? (
        <p role="alert" className="text-sm text-red-700">
          {(send.error ?? confirm.error)?.message}
        </p>
      ) : null}
    </form>
  );
}
