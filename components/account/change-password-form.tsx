"use client";

import { useState, type FormEvent } from "react";
import { useMutation } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";
import { Button } from "@/components/ui/button";
import { fieldClass } from "@/components/ui/select";
import { MIN_PASSWORD_LENGTH } from "@/server/auth/password-rules";

/** Change your own password: the current one, the new one twice. Your other sessions end. */
export function ChangePasswordForm() {
  const trpc = useTRPC();
  const change = useMutation(trpc.session.changePassword.mutationOptions());
  const [mismatch, setMismatch] = useState(false);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const newPassword = String(form.get("newPassword"));
    if (newPassword !== String(form.get("repeatPassword"))) {
      setMismatch(true);
      return;
    }
    setMismatch(false);
    const target = event.currentTarget;
    change.mutate({ currentPassword: String(form.get("currentPassword")), newPassword }, { onSuccess: () => target.reset() });
  }

  return (
    <form onSubmit={submit} className="max-w-md space-y-3 rounded-lg border border-slate-200 bg-white p-4" aria-label="Change password">
      <h2 className="text-base font-semibold text-slate-900">Change password</h2>
      <label className="flex flex-col gap-1 text-sm font-medium">
        Current password
        <input name="currentPassword" type="password" required autoComplete="current-password" className={fieldClass} />
      </label>
      <label className="flex flex-col gap-1 text-sm font-medium">
        New password
        <input name="newPassword" type="password" required minLength={MIN_PASSWORD_LENGTH} autoComplete="new-password" className={fieldClass} />
      </label>
      <label className="flex flex-col gap-1 text-sm font-medium">
        Repeat the new password
        <input name="repeatPassword" type="password" required autoComplete="new-password" className={fieldClass} />
      </label>
      <p className="text-xs text-slate-500">At least {MIN_PASSWORD_LENGTH} characters, not your email address. Your other sessions are signed out; this one stays.</p>
      <Button type="submit" variant="primary" disabled={change.isPending}>
        Change password
      </Button>
      {mismatch && (
        <p role="alert" className="text-sm text-red-700">
          The two new passwords differ.
        </p>
      )}
      {change.error && !mismatch && (
        <p role="alert" className="text-sm text-red-700">
          {change.error.message}
        </p>
      )}
      {change.data && (
        <p role="status" className="text-sm text-emerald-700">
          Password changed; {change.data.sessionsEnded === 0 ? "you had no other sessions" : `${change.data.sessionsEnded} other session${change.data.sessionsEnded === 1 ? "" : "s"} signed out`}.
        </p>
      )}
    </form>
  );
}
