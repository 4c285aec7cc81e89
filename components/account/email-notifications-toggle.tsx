"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";

/** Whether escalation emails reach you (they are sent when the server has SMTP configured). */
export function EmailNotificationsToggle() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const current = useQuery(trpc.session.emailNotifications.queryOptions());
  const set = useMutation(trpc.session.setEmailNotifications.mutationOptions({ onSuccess: (data) => queryClient.setQueryData(trpc.session.emailNotifications.queryKey(), data) }));
  return (
    <section className="max-w-md space-y-2 rounded-lg border border-slate-200 bg-white p-4" aria-label="Escalation emails">
      <h2 className="text-base font-semibold text-slate-900">Escalation emails</h2>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" disabled={!current.data || set.isPending} checked={current.data?.enabled ?? false} onChange={(event) => set.mutate({ enabled: event.target.checked })} />
        Email me each new escalation I may decide, with one-click approve and reject links
      </label>
      {set.error ? <p className="text-sm text-red-700">{set.error.message}</p> : null}
    </section>
  );
}
