"use client";

import { useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";
import { Button } from "@/components/ui/button";
import type { RouterOutputs } from "@/server/api/root";

type Group = RouterOutputs["groups"]["list"][number];

const inputClass = "rounded-md border border-slate-300 px-2 py-1.5 text-sm";

/** Admin → Groups: reviewer groups, their members and how each is told of an escalation. */
export function GroupsAdmin() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const groups = useQuery(trpc.groups.list.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.groups.list.queryKey() });
  const create = useMutation(trpc.groups.create.mutationOptions({ onSuccess: refresh }));

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    create.mutate({ name: String(data.get("name")), description: String(data.get("description") ?? "") || undefined }, { onSuccess: () => form.reset() });
  }

  return (
    <div className="space-y-8">
      <p className="max-w-3xl text-sm text-slate-600">
        The routing document (<a className="underline" href="/admin/routing">Admin → Routing</a>) offers escalations to these groups. An escalation offered to a group reaches its members who
        may decide; one offered to no group reaches every reviewer.
      </p>
      <form onSubmit={submit} className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-4" aria-label="New group">
        <label className="flex flex-col gap-1 text-sm font-medium">
          Group name
          <input name="name" required maxLength={64} className={inputClass} />
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          Description
          <input name="description" maxLength={500} className={inputClass} />
        </label>
        <Button type="submit" variant="primary" disabled={create.isPending}>
          Create group
        </Button>
        {create.error && (
          <p role="alert" className="w-full text-sm text-red-700">
            {create.error.message}
          </p>
        )}
      </form>
      {groups.data?.length === 0 && <p className="text-sm text-slate-500">No groups yet.</p>}
      {groups.data?.map((group) => (
        <GroupCard key={group.id} group={group} onChanged={refresh} />
      ))}
    </div>
  );
}

function GroupCard({ group, onChanged }: { group: Group; onChanged: () => Promise<void> }) {
  const trpc = useTRPC();
  const options = { onSuccess: onChanged };
  const rename = useMutation(trpc.groups.rename.mutationOptions(options));
  const remove = useMutation(trpc.groups.delete.mutationOptions(options));
  const addMember = useMutation(trpc.groups.addMember.mutationOptions(options));
  const removeMember = useMutation(trpc.groups.removeMember.mutationOptions(options));
  const channels = useMutation(trpc.groups.setChannels.mutationOptions(options));
  const [name, setName] = useState(group.name);
  const [webhook, setWebhook] = useState("");
  const [channel, setChannel] = useState(group.slackChannel ?? "");
  const error = [rename, remove, addMember, removeMember, channels].find((mutation) => mutation.error)?.error;

  function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    addMember.mutate({ groupId: group.id, email: String(new FormData(form).get("email")) }, { onSuccess: () => form.reset() });
  }

  return (
    <section className="space-y-4 rounded-lg border border-slate-200 bg-white p-4" aria-label={`Group ${group.name}`} data-testid="group-card">
      <div className="flex flex-wrap items-end gap-3">
        <label className="flex flex-col gap-1 text-sm font-medium">
          Name
          <input value={name} onChange={(event) => setName(event.target.value)} maxLength={64} className={inputClass} aria-label={`Name of ${group.name}`} />
        </label>
        <Button disabled={name.trim() === group.name || rename.isPending} onClick={() => rename.mutate({ groupId: group.id, name })}>
          Rename
        </Button>
        <span className="text-sm text-slate-500">{group.pending} pending escalation(s) offered to it</span>
        <Button variant="danger" className="ml-auto" disabled={remove.isPending} onClick={() => window.confirm(`Delete the group ${group.name}?`) && remove.mutate({ groupId: group.id })}>
          Delete {group.name}
        </Button>
      </div>
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error.message}
        </p>
      )}
      <div>
        <h3 className="text-sm font-semibold text-slate-800">Members</h3>
        <ul className="mt-1 space-y-1 text-sm">
          {group.members.length === 0 && <li className="text-slate-500">No members: escalations offered to this group reach nobody.</li>}
          {group.members.map((member) => (
            <li key={member.userId} className="flex items-center gap-3" data-testid="group-member">
              <span>{member.email}</span>
              <span className="text-xs text-slate-500">
                {member.role}
                {member.disabled ? ", disabled" : ""}
              </span>
              <Button variant="link" onClick={() => removeMember.mutate({ groupId: group.id, userId: member.userId })}>
                Remove {member.email}
              </Button>
            </li>
          ))}
        </ul>
        <form onSubmit={add} className="mt-2 flex items-end gap-2" aria-label={`Add a member to ${group.name}`}>
          <label className="flex flex-col gap-1 text-sm font-medium">
            Member email
            <input name="email" type="email" required className={inputClass} />
          </label>
          <Button type="submit" disabled={addMember.isPending}>
            Add member
          </Button>
        </form>
      </div>
      <fieldset className="space-y-2">
        <legend className="text-sm font-semibold text-slate-800">Channels</legend>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={group.notifyEmail} onChange={(event) => channels.mutate({ groupId: group.id, notifyEmail: event.target.checked })} />
          Email each member who wants email
        </label>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={group.notifySlack} onChange={(event) => channels.mutate({ groupId: group.id, notifySlack: event.target.checked })} />
          Post to the group&apos;s Slack channel
        </label>
        <div className="flex flex-wrap items-end gap-3">
          <label className="flex flex-col gap-1 text-sm font-medium">
            Slack webhook URL
            <input
              value={webhook}
              onChange={(event) => setWebhook(event.target.value)}
              type="password"
              autoComplete="off"
              placeholder={group.slackWebhookHint ? `saved: ${group.slackWebhookHint}` : "https://hooks.slack.com/services/…"}
              className={`${inputClass} w-96`}
            />
          </label>
          <Button disabled={webhook.trim() === "" || channels.isPending} onClick={() => channels.mutate({ groupId: group.id, slackWebhookUrl: webhook.trim() }, { onSuccess: () => setWebhook("") })}>
            Save webhook
          </Button>
          {group.slackWebhookHint && (
            <Button variant="link" onClick={() => channels.mutate({ groupId: group.id, slackWebhookUrl: null })}>
              Remove webhook
            </Button>
          )}
        </div>
        <div className="flex flex-wrap items-end gap-3">
          <label className="flex flex-col gap-1 text-sm font-medium">
            Slack channel id (for the Slack app)
            <input value={channel} onChange={(event) => setChannel(event.target.value)} maxLength={80} placeholder="C0123ABCD" className={inputClass} />
          </label>
          <Button disabled={channel.trim() === (group.slackChannel ?? "") || channels.isPending} onClick={() => channels.mutate({ groupId: group.id, slackChannel: channel.trim() || null })}>
            Save channel
          </Button>
        </div>
      </fieldset>
    </section>
  );
}
