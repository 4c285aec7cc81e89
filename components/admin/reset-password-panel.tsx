"use client";

import { useState, type FormEvent } from "react";
import { useMutation } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { fieldClass } from "@/components/ui/select";

/** An admin resets one user's password: typed in, or generated and shown once. The user's sessions end. */
export function ResetPasswordPanel({ user, onClose }: { user: { id: string; email: string }; onClose: () => void }) {
  const trpc = useTRPC();
  const [typed, setTyped] = useState("");
  const reset = useMutation(trpc.admin.resetPassword.mutationOptions());

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    reset.mutate({ userId: user.id, ...(typed ? { password: typed } : {}) });
  }

  if (reset.data) {
    const ended = `${reset.data.sessionsEnded} session${reset.data.sessionsEnded === 1 ? "" : "s"} ended`;
    return (
      <div className="space-y-2 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm" aria-label={`Password reset for ${user.email}`}>
        {reset.data.generatedPassword ? (
          <>
            <p className="font-medium">The new password of {user.email} ({ended}): give it to them now, it is not shown again.</p>
            <code data-testid="generated-password" className="block break-all rounded bg-white px-2 py-1 font-mono">
              {reset.data.generatedPassword}
            </code>
            <CopyButton text={reset.data.generatedPassword} label="Copy password" />
          </>
        ) : (
          <p className="font-medium">
            {user.email} now signs in with the password you typed ({ended}).
          </p>
        )}
        <Button onClick={onClose}>Done</Button>
      </div>
    );
  }

  return (
    <form onSubmit={submit} className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-4" aria-label={`Reset the password of ${user.email}`}>
      <p className="w-full text-sm font-medium">Reset the password of {user.email}: they are signed out everywhere.</p>
      <label className="flex flex-col gap-1 text-sm font-medium">
        New password
        <input type="password" value={typed} onChange={(event) => setTyped(event.target.value)} autoComplete="new-password" placeholder="empty: generate one" className={fieldClass} />
      </label>
      <Button type="submit" variant="primary" disabled={reset.isPending}>
        {typed ? "Set password" : "Generate password"}
      </Button>
      <Button onClick={onClose}>Cancel</Button>
      {reset.error && (
        <p role="alert" className="w-full text-sm text-red-700">
          {reset.error.message}
        </p>
      )}
    </form>
  );
}
