"use client";

import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";

const ACTIONS = ["", "sign_in", "sign_out", "escalation", "user", "token", "workflow"] as const;

/** The append-only audit log, newest first, filtered by kind of action and by who acted. */
export function AuditLog() {
  const trpc = useTRPC();
  const [action, setAction] = useState("");
  const [actorEmail, setActorEmail] = useState("");
  const events = useQuery(trpc.admin.audit.queryOptions({ action: action || undefined, actorEmail: actorEmail || undefined, limit: 200 }));
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap gap-3">
        <label className="flex flex-col gap-1 text-sm font-medium">
          Action
          <select value={action} onChange={(event) => setAction(event.target.value)} className="rounded-md border border-slate-300 px-2 py-1.5 text-sm">
            {ACTIONS.map((a) => (
              <option key={a} value={a}>
                {a || "all"}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          Who
          <input value={actorEmail} onChange={(event) => setActorEmail(event.target.value)} placeholder="email" className="rounded-md border border-slate-300 px-2 py-1.5 text-sm" />
        </label>
      </div>
      <table className="w-full text-left text-sm" aria-label="Audit log">
        <thead className="text-slate-500">
          <tr>
            <th className="py-2">When</th>
            <th>Who</th>
            <th>Action</th>
            <th>Target</th>
            <th>Detail</th>
          </tr>
        </thead>
        <tbody>
          {events.data?.map((event) => (
            <tr key={event.id} className="border-t border-slate-100 align-top" data-testid="audit-row">
              <td className="py-2 whitespace-nowrap">{new Date(event.at).toLocaleString()}</td>
              <td>{event.actorEmail}</td>
              <td className="font-mono">{event.action}</td>
              <td className="font-mono">{event.target}</td>
              <td className="font-mono text-xs text-slate-600">{Object.keys(event.detail).length > 0 ? JSON.stringify(event.detail) : ""}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {events.data?.length === 0 && <p className="text-sm text-slate-500">No events match.</p>}
    </div>
  );
}
