"use client";

import { useId, useState, type FormEvent } from "react";
import { useMutation } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";
import type { RouterOutputs } from "@/server/api/root";
import { ConnectionResultNote } from "./connection-result";

export type EndpointView = RouterOutputs["models"]["list"][number];

const inputClass = "rounded-md border border-slate-300 px-2 py-1.5 text-sm";

/**
 * Adds an endpoint, or edits a stored one. The key field is always empty: a stored key is never
 * sent to the browser, and leaving the field empty keeps it.
 */
export function EndpointForm({ editing, suggestDefault, onDone }: { editing: EndpointView | null; suggestDefault: boolean; onDone: () => void }) {
  const trpc = useTRPC();
  const id = useId();
  const [name, setName] = useState(editing?.name ?? "");
  const [baseUrl, setBaseUrl] = useState(editing?.baseUrl ?? "");
  const [apiKey, setApiKey] = useState("");
  const [clearApiKey, setClearApiKey] = useState(false);
  const [defaultModel, setDefaultModel] = useState(editing?.defaultModel ?? "");
  const [isDefault, setIsDefault] = useState(editing ? editing.isDefault : suggestDefault);
  const create = useMutation(trpc.models.create.mutationOptions({ onSuccess: onDone }));
  const update = useMutation(trpc.models.update.mutationOptions({ onSuccess: onDone }));
  const test = useMutation(trpc.models.testConnection.mutationOptions());
  const save = editing ? update : create;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const fields = { name, baseUrl, defaultModel, isDefault, ...(apiKey ? { apiKey } : {}) };
    if (editing) update.mutate({ ...fields, id: editing.id, clearApiKey: clearApiKey || undefined });
    else create.mutate(fields);
  }

  function testConnection() {
    test.mutate({ ...(editing ? { id: editing.id } : {}), baseUrl, ...(apiKey ? { apiKey } : {}), ...(defaultModel ? { defaultModel } : {}) });
  }

  return (
    <form onSubmit={submit} aria-label={editing ? `Edit ${editing.name}` : "New model endpoint"} className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
      <h2 className="text-base font-semibold text-slate-900">{editing ? `Edit ${editing.name}` : "Add an OpenAI-compatible endpoint"}</h2>
      <div className="grid gap-3 sm:grid-cols-2">
        <label className="flex flex-col gap-1 text-sm font-medium">
          Name
          <input value={name} onChange={(event) => setName(event.target.value)} required maxLength={64} placeholder="local-ollama" className={inputClass} />
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          Base URL
          <input value={baseUrl} onChange={(event) => setBaseUrl(event.target.value)} required maxLength={2048} type="url" placeholder="http://localhost:11434/v1" className={inputClass} />
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          API key
          <input
            value={apiKey}
            onChange={(event) => setApiKey(event.target.value)}
            type="password"
            autoComplete="off"
            maxLength={4096}
            disabled={clearApiKey}
            aria-describedby={`${id}-key-help`}
            className={inputClass}
          />
          <span id={`${id}-key-help`} className="text-xs font-normal text-slate-500">
            {editing?.apiKey.set ? "A key is stored. Leave empty to keep it; type a new one to replace it." : "Stored encrypted; it is never shown again. Leave empty for servers that need none."}
          </span>
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          Default model
          <input value={defaultModel} onChange={(event) => setDefaultModel(event.target.value)} maxLength={200} placeholder="qwen2.5-coder:7b" className={inputClass} />
          <span className="text-xs font-normal text-slate-500">For steps that name no model.</span>
        </label>
      </div>
      <div className="flex flex-wrap gap-4 text-sm">
        <label className="flex items-center gap-2">
          <input type="checkbox" checked={isDefault} onChange={(event) => setIsDefault(event.target.checked)} />
          Use for steps that name no endpoint
        </label>
        {editing?.apiKey.set && (
          <label className="flex items-center gap-2">
            <input type="checkbox" checked={clearApiKey} onChange={(event) => setClearApiKey(event.target.checked)} />
            Remove the stored key
          </label>
        )}
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" disabled={save.isPending} className="rounded-md bg-slate-900 px-3 py-1.5 text-sm font-semibold text-white disabled:opacity-50">
          {editing ? "Save changes" : "Add endpoint"}
        </button>
        <button type="button" onClick={testConnection} disabled={test.isPending || baseUrl.trim() === ""} className="rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium disabled:opacity-50">
          {test.isPending ? "Testing…" : "Test connection"}
        </button>
        <button type="button" onClick={onDone} className="rounded-md px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-100">
          Cancel
        </button>
      </div>
      <ConnectionResultNote result={test.data} error={test.error?.message} />
      {save.error && (
        <p role="alert" className="text-sm text-red-700">
          {save.error.message}
        </p>
      )}
    </form>
  );
}
