"use client";

import { useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";

const inputClass = "rounded-md border border-slate-300 px-2 py-1.5 text-sm";

/** Personal API tokens: created for a user and shown once, listed by prefix, revocable. */
export function TokensAdmin() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const users = useQuery(trpc.admin.users.queryOptions());
  const tokens = useQuery(trpc.admin.tokens.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.admin.tokens.queryKey() });
  const [shown, setShown] = useState<{ name: string; token: string } | null>(null);
  const createToken = useMutation(trpc.admin.createToken.mutationOptions({ onSuccess: refresh }));
  const revokeToken = useMutation(trpc.admin.revokeToken.mutationOptions({ onSuccess: refresh }));

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const name = String(form.get("name"));
    createToken.mutate({ userId: String(form.get("userId")), name }, { onSuccess: ({ token }) => setShown({ name, token }) });
  }

  return (
    <div className="space-y-8">
      <form onSubmit={submit} className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-4" aria-label="New API token">
        <label className="flex flex-col gap-1 text-sm font-medium">
          Name
          <input name="name" required placeholder="CI pipeline" className={inputClass} />
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          Acts as
          <select name="userId" required className={inputClass}>
            {users.data?.map((user) => (
              <option key={user.id} value={user.id}>
                {user.email} ({user.role})
              </option>
            ))}
          </select>
        </label>
        {/* Not before the users are listed: an empty "Acts as" would block the form with no word why. */}
        <button type="submit" disabled={createToken.isPending || !users.data} className="rounded-md bg-slate-900 px-3 py-1.5 text-sm font-semibold text-white disabled:opacity-50">
          Create token
        </button>
        {createToken.error && (
          <p role="alert" className="w-full text-sm text-red-700">
            {createToken.error.message}
          </p>
        )}
      </form>
      {shown && (
        <div role="status" className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm">
          <p className="font-medium">Token “{shown.name}”: copy it now, it is not shown again.</p>
          <code data-testid="new-token" className="mt-2 block break-all rounded bg-white px-2 py-1 font-mono">
            {shown.token}
          </code>
        </div>
      )}
      <table className="w-full text-left text-sm" aria-label="API tokens">
        <thead className="text-slate-500">
          <tr>
            <th className="py-2">Name</th>
            <th>Token</th>
            <th>Acts as</th>
            <th>Created</th>
            <th>Last used</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {tokens.data?.map((token) => (
            <tr key={token.id} className="border-t border-slate-100" data-testid="token-row">
              <td className="py-2">{token.name}</td>
              <td className="font-mono">{token.prefix}…</td>
              <td>
                {token.user.email} ({token.user.role})
              </td>
              <td>{new Date(token.createdAt).toLocaleString()}</td>
              <td>{token.lastUsedAt ? new Date(token.lastUsedAt).toLocaleString() : "never"}</td>
              <td>
                {token.revokedAt ? (
                  "revoked"
                ) : (
                  <button type="button" className="text-sm font-medium text-red-700 underline" onClick={() => revokeToken.mutate({ tokenId: token.id })}>
                    Revoke {token.name}
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
