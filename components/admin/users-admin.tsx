"use client";

import { useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";
import { ROLES, type Role } from "@/server/auth/permissions";
import { ResetPasswordPanel } from "./reset-password-panel";

const inputClass = "rounded-md border border-slate-300 px-2 py-1.5 text-sm";

/** Users: create one, change a role, disable or enable. Every change lands in the audit log. */
export function UsersAdmin() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const users = useQuery(trpc.admin.users.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.admin.users.queryKey() });
  const createUser = useMutation(trpc.admin.createUser.mutationOptions({ onSuccess: refresh }));
  const updateUser = useMutation(trpc.admin.updateUser.mutationOptions({ onSuccess: refresh }));
  const [role, setRole] = useState<Role>("reviewer");
  const [resetting, setResetting] = useState<{ id: string; email: string } | null>(null);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    createUser.mutate(
      { email: String(form.get("email")), name: String(form.get("name") ?? "") || undefined, password: String(form.get("password")), role },
      { onSuccess: () => (event.target as HTMLFormElement).reset() },
    );
  }

  return (
    <div className="space-y-8">
      <form onSubmit={submit} className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-4" aria-label="New user">
        <label className="flex flex-col gap-1 text-sm font-medium">
          Email
          <input name="email" type="email" required className={inputClass} />
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          Name
          <input name="name" className={inputClass} />
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          Password
          <input name="password" type="password" minLength={12} required autoComplete="new-password" className={inputClass} />
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          Role
          <select value={role} onChange={(event) => setRole(event.target.value as Role)} className={inputClass}>
            {ROLES.map((r) => (
              <option key={r}>{r}</option>
            ))}
          </select>
        </label>
        <button type="submit" disabled={createUser.isPending} className="rounded-md bg-slate-900 px-3 py-1.5 text-sm font-semibold text-white disabled:opacity-50">
          Create user
        </button>
        {createUser.error && (
          <p role="alert" className="w-full text-sm text-red-700">
            {createUser.error.message}
          </p>
        )}
      </form>
      {updateUser.error && (
        <p role="alert" className="text-sm text-red-700">
          {updateUser.error.message}
        </p>
      )}
      <table className="w-full text-left text-sm" aria-label="Users">
        <thead className="text-slate-500">
          <tr>
            <th className="py-2">Email</th>
            <th>Name</th>
            <th>Role</th>
            <th>Status</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {users.data?.map((user) => (
            <tr key={user.id} className="border-t border-slate-100" data-testid="user-row">
              <td className="py-2">{user.email}</td>
              <td>{user.name}</td>
              <td>
                <select
                  aria-label={`Role of ${user.email}`}
                  value={user.role}
                  onChange={(event) => updateUser.mutate({ userId: user.id, role: event.target.value as Role })}
                  className={inputClass}
                >
                  {ROLES.map((r) => (
                    <option key={r}>{r}</option>
                  ))}
                </select>
              </td>
              <td>{user.disabled ? "disabled" : "active"}</td>
              <td>
                <button type="button" className="text-sm font-medium text-slate-700 underline" onClick={() => updateUser.mutate({ userId: user.id, disabled: !user.disabled })}>
                  {user.disabled ? `Enable ${user.email}` : `Disable ${user.email}`}
                </button>{" "}
                <button type="button" className="text-sm font-medium text-slate-700 underline" onClick={() => setResetting({ id: user.id, email: user.email })}>
                  Reset password of {user.email}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {resetting && <ResetPasswordPanel key={resetting.id} user={resetting} onClose={() => setResetting(null)} />}
    </div>
  );
}
