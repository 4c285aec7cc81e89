"use client";

import { type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";
import { Button } from "@/components/ui/button";
import { fieldClass } from "@/components/ui/select";
import { SlackVerificationForm } from "./slack-verification-form";

/**
 * Your Slack member id (who you are when you click a Slack button, once verified) and whether
 * escalations reach you by Slack direct message; below it, the verification of a new id.
 */
export function SlackNotificationsForm() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const current = useQuery(trpc.session.slackNotifications.queryOptions());
  const save = useMutation(trpc.session.setSlackNotifications.mutationOptions({ onSuccess: (data) => queryClient.setQueryData(trpc.session.slackNotifications.queryKey(), data) }));

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    save.mutate({ slackUserId: String(form.get("slackUserId") ?? ""), enabled: form.get("enabled") === "on" });
  }

  if (!current.data) return null;
  const shownId = current.data.pendingSlackUserId ?? current.data.slackUserId;
  return (
    <div className="space-y-3">
      {/* Keyed by the saved values, so the form shows them again after a save. */}
      <form key={`${shownId}:${current.data.enabled}`} onSubmit={submit} className="max-w-md space-y-3 rounded-lg border border-slate-200 bg-white p-4" aria-label="Slack">
        <h2 className="text-base font-semibold text-slate-900">Slack</h2>
        <label className="flex flex-col gap-1 text-sm font-medium">
          Your Slack member id
          <input name="slackUserId" defaultValue={shownId ?? ""} placeholder="U0123ABCD" maxLength={40} autoComplete="off" className={fieldClass} />
        </label>
        <p className="text-xs text-slate-500">In Slack: your profile → ⋮ → Copy member ID. Once you confirm it with the code Dualstate sends you there, buttons you click on Dualstate&apos;s Slack messages act as this account.</p>
        <label className="flex items-center gap-2 text-sm">
          <input name="enabled" type="checkbox" defaultChecked={current.data.enabled} />
          Send me a Slack direct message for each new escalation I may decide
        </label>
        <Button type="submit" variant="primary" disabled={save.isPending}>
          Save Slack settings
        </Button>
        {save.error ? (
          <p role="alert" className="text-sm text-red-700">
            {save.error.message}
          </p>
        ) : save.isSuccess ? (
          <p role="status" className="text-sm text-emerald-700">
            {current.data.pendingSlackUserId ? "Saved. Now confirm the member id below." : "Saved."}
          </p>
        ) : null}
      </form>
      <SlackVerificationForm state={current.data} />
    </div>
  );
}
