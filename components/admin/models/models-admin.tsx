"use client";

import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";
import { ConnectionResultNote } from "./connection-result";
import { EndpointForm, type EndpointView } from "./endpoint-form";

function keyLabel(endpoint: EndpointView): string {
  if (!endpoint.apiKey.set) return "none";
  return endpoint.apiKey.lastFour ? `set, ends in …${endpoint.apiKey.lastFour}` : "set";
}

/** Admin → Models: the OpenAI-compatible endpoints runs may call, with the environment's one read-only. */
export function ModelsAdmin() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const endpoints = useQuery(trpc.models.list.queryOptions());
  const [editing, setEditing] = useState<EndpointView | "new" | null>(null);
  const [confirmDelete, setConfirmDelete] = useState<string | null>(null);
  const refresh = () =>
    Promise.all([queryClient.invalidateQueries({ queryKey: trpc.models.list.queryKey() }), queryClient.invalidateQueries({ queryKey: trpc.models.status.queryKey() })]);
  const remove = useMutation(trpc.models.delete.mutationOptions({ onSuccess: () => void refresh().then(() => setConfirmDelete(null)) }));
  const test = useMutation(trpc.models.testConnection.mutationOptions());

  return (
    <div className="space-y-6">
      <p className="max-w-3xl text-sm text-slate-600">
        Steps call the endpoint they name (<code>generator: {"{ kind: llm, endpoint: NAME }"}</code>) or, when they name none, the one marked default here; without a model option they use
        the endpoint&apos;s default model. A run whose model is not configured is refused before it starts. Keys are stored encrypted and never shown again.
      </p>
      {editing === null ? (
        <button type="button" onClick={() => setEditing("new")} className="rounded-md bg-slate-900 px-3 py-1.5 text-sm font-semibold text-white">
          Add endpoint
        </button>
      ) : (
        <EndpointForm
          key={editing === "new" ? "new" : editing.id}
          editing={editing === "new" ? null : editing}
          suggestDefault={!endpoints.data?.some((endpoint) => endpoint.isDefault)}
          onDone={() => void refresh().then(() => setEditing(null))}
        />
      )}
      {endpoints.error && (
        <p role="alert" className="text-sm text-red-700">
          {endpoints.error.message}
        </p>
      )}
      {endpoints.data?.length === 0 && <p className="text-sm text-slate-600">No model is configured yet: add an endpoint, or set OPENAI_BASE_URL and OPENAI_MODEL in the environment.</p>}
      {endpoints.data && endpoints.data.length > 0 && (
        <table className="w-full text-left text-sm" aria-label="Model endpoints">
          <thead className="text-slate-500">
            <tr>
              <th className="py-2">Name</th>
              <th>Base URL</th>
              <th>Default model</th>
              <th>API key</th>
              <th>Updated</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {endpoints.data.map((endpoint) => (
              <tr key={endpoint.id} className="border-t border-slate-100 align-top" data-testid="endpoint-row" data-name={endpoint.name}>
                <td className="py-2">
                  <span className="font-medium">{endpoint.name}</span>
                  {endpoint.isDefault && <span className="ml-2 rounded bg-emerald-50 px-1.5 py-0.5 text-xs font-medium text-emerald-700">default</span>}
                  {endpoint.source === "environment" && <span className="ml-2 rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-600">from environment, read-only</span>}
                  {endpoint.problem && (
                    <p role="alert" className="mt-1 text-xs text-red-700">
                      {endpoint.problem}
                    </p>
                  )}
                </td>
                <td className="break-all font-mono text-xs">{endpoint.baseUrl}</td>
                <td className="font-mono text-xs">{endpoint.defaultModel ?? "none"}</td>
                <td data-testid="endpoint-key">{keyLabel(endpoint)}</td>
                <td className="text-xs text-slate-500">{endpoint.updatedAt ? `${new Date(endpoint.updatedAt).toLocaleString()} by ${endpoint.updatedBy}` : "set in the environment"}</td>
                <td className="space-y-1 text-right">
                  <div className="flex flex-wrap justify-end gap-2">
                    <button type="button" className="text-sm font-medium underline" disabled={test.isPending} onClick={() => test.mutate({ id: endpoint.id })}>
                      Test {endpoint.name}
                    </button>
                    {endpoint.source === "settings" && (
                      <>
                        <button type="button" className="text-sm font-medium underline" onClick={() => setEditing(endpoint)}>
                          Edit {endpoint.name}
                        </button>
                        <button type="button" className="text-sm font-medium text-red-700 underline" onClick={() => setConfirmDelete(endpoint.id)}>
                          Delete {endpoint.name}
                        </button>
                      </>
                    )}
                  </div>
                  {test.variables?.id === endpoint.id && <ConnectionResultNote result={test.data} error={test.error?.message} />}
                  {confirmDelete === endpoint.id && (
                    <div role="alertdialog" aria-label={`Delete ${endpoint.name}?`} className="rounded-md border border-red-200 bg-red-50 p-2 text-left text-sm">
                      <p>Delete “{endpoint.name}” and its stored key? Runs whose steps use it will be refused until another endpoint serves them.</p>
                      <div className="mt-2 flex gap-2">
                        <button type="button" disabled={remove.isPending} onClick={() => remove.mutate({ id: endpoint.id })} className="rounded-md bg-red-700 px-2 py-1 text-xs font-semibold text-white">
                          Yes, delete {endpoint.name}
                        </button>
                        <button type="button" onClick={() => setConfirmDelete(null)} className="rounded-md px-2 py-1 text-xs font-medium">
                          Keep it
                        </button>
                      </div>
                      {remove.error && <p className="mt-1 text-xs text-red-700">{remove.error.message}</p>}
                    </div>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
