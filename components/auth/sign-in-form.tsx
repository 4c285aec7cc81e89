"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";

/** Email and password, posted as JSON to better-auth (through the attempt limiter). */
export function SignInForm() {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    try {
      const response = await fetch("/api/auth/sign-in/email", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: String(form.get("email") ?? ""), password: String(form.get("password") ?? "") }),
      });
      if (response.ok) {
        router.replace("/");
        router.refresh();
        return;
      }
      const body = (await response.json().catch(() => ({}))) as { message?: string; code?: string };
      // An address no account can have says why (a dot missing in its domain...); a wrong pair says no more than that.
      if (body.code === "INVALID_EMAIL" && body.message) setError(body.message);
      else setError(response.status === 401 || response.status === 400 ? "Wrong email or password." : (body.message ?? `Sign-in failed (${response.status}).`));
    } catch {
      setError("The server cannot be reached; try again.");
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-4" aria-describedby={error ? "sign-in-error" : undefined}>
      <label className="flex flex-col gap-1 text-sm font-medium text-slate-700">
        Email
        <input name="email" type="email" autoComplete="username" required className="rounded-md border border-slate-300 px-3 py-2 font-normal" />
      </label>
      <label className="flex flex-col gap-1 text-sm font-medium text-slate-700">
        Password
        <input name="password" type="password" autoComplete="current-password" required className="rounded-md border border-slate-300 px-3 py-2 font-normal" />
      </label>
      {error && (
        <p id="sign-in-error" role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          {error}
        </p>
      )}
      <button type="submit" disabled={busy} className="rounded-md bg-slate-900 px-4 py-2 text-sm font-semibold text-white hover:bg-slate-700 disabled:opacity-50">
        Sign in
      </button>
    </form>
  );
}
