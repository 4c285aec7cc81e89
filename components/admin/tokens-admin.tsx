"use client";

import { useEffect, useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { DayInput } from "@/components/ui/day-input";
import { fieldClass, Select } from "@/components/ui/select";
import { Table, TableBody, TableHead, Td } from "@/components/ui/table";
import { DEFAULT_EXPIRY, EXPIRY_CHOICES, expiryFrom, tokenStatus, type ExpiryChoice } from "./token-expiry";

const STATE_CLASS = { active: "text-emerald-700", "no expiry": "text-amber-700", expired: "text-red-700", revoked: "text-slate-500" } as const;

/** Personal API tokens: created for a user with an expiry and shown once, listed with their state, revocable. */
export function TokensAdmin() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const users = useQuery(trpc.admin.users.queryOptions());
  const tokens = useQuery(trpc.admin.tokens.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.admin.tokens.queryKey() });
  const [shown, setShown] = useState<{ name: string; token: string; expiresAt: Date } | null>(null);
  const [expiry, setExpiry] = useState<ExpiryChoice>(DEFAULT_EXPIRY);
  const [expiryDay, setExpiryDay] = useState("");
  const [dateProblem, setDateProblem] = useState<string | null>(null);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  const createToken = useMutation(trpc.admin.createToken.mutationOptions({ onSuccess: refresh }));
  const revokeToken = useMutation(trpc.admin.revokeToken.mutationOptions({ onSuccess: refresh }));

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const name = String(form.get("name"));
    const expiresAt = expiryFrom(expiry, expiryDay, new Date());
    if (!expiresAt) {
      setDateProblem("Choose the day the token expires");
      return;
    }
    setDateProblem(null);
    createToken.mutate({ userId: String(form.get("userId")), name, expiresAt }, { onSuccess: ({ token }) => setShown({ name, token, expiresAt }) });
  }

  return (
    <div className="space-y-8">
      <form onSubmit={submit} className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-4" aria-label="New API token">
        <label className="flex flex-col gap-1 text-sm font-medium">
          Name
          <input name="name" required placeholder="CI pipeline" className={fieldClass} />
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          Acts as
          <select name="userId" required className={fieldClass}>
            {users.data?.map((user) => (
              <option key={user.id} value={user.id}>
                {user.email} ({user.role})
              </option>
            ))}
          </select>
        </label>
        <Select label="Expires" value={expiry} onChange={(event) => setExpiry(event.target.value as ExpiryChoice)} options={EXPIRY_CHOICES} />
        {expiry === "date" && <DayInput label="Expiry day" value={expiryDay} onChange={setExpiryDay} />}
        {/* Not before the users are listed: an empty "Acts as" would block the form with no word why. */}
        <Button type="submit" variant="primary" disabled={createToken.isPending || !users.data}>
          Create token
        </Button>
        {(dateProblem ?? createToken.error) && (
          <p role="alert" className="w-full text-sm text-red-700">
            {dateProblem ?? createToken.error?.message}
          </p>
        )}
      </form>
      {shown && (
        <div className="space-y-2 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm" aria-label="New token">
          <p className="font-medium">
            Token “{shown.name}”, valid until {shown.expiresAt.toLocaleString()}: copy it now, it is not shown again.
          </p>
          <code data-testid="new-token" className="block break-all rounded bg-white px-2 py-1 font-mono">
            {shown.token}
          </code>
          <CopyButton text={shown.token} label="Copy token" />
        </div>
      )}
      {revokeToken.error && (
        <p role="alert" className="text-sm text-red-700">
          The token was not revoked: {revokeToken.error.message}
        </p>
      )}
      <Table label="API tokens">
        <TableHead columns={["Name", "Token", "Acts as", "Created", "Expiry", "Last used", ""]} />
        <TableBody>
          {tokens.data?.map((token) => {
            const status = tokenStatus(token, now);
            return (
              <tr key={token.id} data-testid="token-row" data-state={status.state}>
                <Td>{token.name}</Td>
                <Td className="font-mono">{token.prefix}…</Td>
                <Td>
                  {token.user.email} ({token.user.role})
                </Td>
                <Td className="whitespace-nowrap">{new Date(token.createdAt).toLocaleString()}</Td>
                <Td className={`whitespace-nowrap ${STATE_CLASS[status.state]}`} title={token.expiresAt ? token.expiresAt.toLocaleString() : undefined}>
                  {status.text}
                </Td>
                <Td className="whitespace-nowrap">{token.lastUsedAt ? new Date(token.lastUsedAt).toLocaleString() : "never"}</Td>
                <Td>
                  {token.revokedAt ? null : (
                    <Button variant="danger" disabled={revokeToken.isPending} onClick={() => revokeToken.mutate({ tokenId: token.id })}>
                      Revoke {token.name}
                    </Button>
                  )}
                </Td>
              </tr>
            );
          })}
        </TableBody>
      </Table>
    </div>
  );
}
