"use client";

import { useId, useState, type FormEvent } from "react";
import { useRouter } from "next/navigation";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";
import type { RouterOutputs } from "@/server/api/root";
import { RunModelsNote } from "./run-models-note";

export type WorkflowSummary = RouterOutputs["workflow"]["list"][number];
type GeneratorChoice = "configured" | "replay" | "cassette-file";

const GENERATOR_LABELS: Record<GeneratorChoice, string> = {
  configured: "Configured model",
  replay: "Replay bundled cassette",
  "cassette-file": "Replay a cassette file",
};

/** Starts a run of the workflow's latest version, or of `version` (with a model, its bundled cassette or a cassette file) and opens its page; API errors show inline. */
export function StartRunForm({ workflow, version, onCancel }: { workflow: WorkflowSummary; version?: number; onCancel: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const fieldId = useId();
  const [specification, setSpecification] = useState(workflow.specification ?? "");
  // A cassette file runs any workflow offline, one designed from nothing included.
  const choices: GeneratorChoice[] = workflow.hasReplayCassette ? ["replay", "configured", "cassette-file"] : ["configured", "cassette-file"];
  const configuredPlan = useQuery(trpc.models.planRun.queryOptions({ workflowId: workflow.id }));
  const replayPlan = useQuery(trpc.models.planRun.queryOptions({ workflowId: workflow.id, replay: true }));
  const [chosen, setChosen] = useState<GeneratorChoice | null>(null);
  // The configured model is the default only when the run could start with it.
  const preferred = choices[0] === "configured" && configuredPlan.data?.refusal ? "cassette-file" : choices[0];
  const generator: GeneratorChoice = chosen ?? preferred ?? "configured";
  const plan = generator === "configured" ? configuredPlan : replayPlan;
  const [cassette, setCassette] = useState<string | null>(null);

  const createRun = useMutation(
    trpc.run.create.mutationOptions({
      onSuccess: async ({ id }) => {
        // The overview lists the new run and the workflow's run count when the user returns.
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: trpc.run.listRecent.queryKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.workflow.list.queryKey() }),
        ]);
        router.push(`/runs/${id}`);
      },
    }),
  );
  // The formatter flattens zod errors of any input, so its field map is typed loosely.
  const fieldErrors: Partial<Record<string, string[]>> = createRun.error?.data?.zodError?.fieldErrors ?? {};
  const specificationInvalid = Boolean(fieldErrors.specification);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (generator === "cassette-file") createRun.mutate({ workflowId: workflow.id, version, specification, generator: "replay", cassette: cassette ?? "" });
    else createRun.mutate({ workflowId: workflow.id, version, specification, generator });
  }

  return (
    <form onSubmit={submit} className="space-y-4" data-testid="start-run-form">
      <div className="space-y-1.5">
        <label htmlFor={`${fieldId}-specification`} className="block text-sm font-medium text-slate-900">
          Specification
        </label>
        <textarea
          id={`${fieldId}-specification`}
          name="specification"
          rows={6}
          value={specification}
          onChange={(event) => setSpecification(event.target.value)}
          aria-invalid={specificationInvalid || undefined}
          aria-describedby={createRun.error ? `${fieldId}-error` : undefined}
          className="block w-full rounded-md border border-slate-300 px-3 py-2 font-mono text-sm text-slate-900 shadow-sm focus:border-slate-500 focus:outline-none focus:ring-1 focus:ring-slate-500 aria-invalid:border-red-500"
        />
      </div>
      <fieldset className="space-y-1.5">
        <legend className="text-sm font-medium text-slate-900">Generator</legend>
        {choices.map((choice) => (
          <label key={choice} className="flex items-center gap-2 text-sm text-slate-700">
            <input type="radio" name="generator" value={choice} checked={generator === choice} onChange={() => setChosen(choice)} />
            {GENERATOR_LABELS[choice]}
          </label>
        ))}
      </fieldset>
      <RunModelsNote plan={plan.data} replay={generator !== "configured"} loading={plan.isPending} error={plan.error?.message} />
      {generator === "cassette-file" && (
        <div className="space-y-1.5">
          <label htmlFor={`${fieldId}-cassette`} className="block text-sm font-medium text-slate-900">
            Cassette file
          </label>
          <input
            id={`${fieldId}-cassette`}
            type="file"
            accept=".json,application/json"
            required
            onChange={async (event) => setCassette((await event.target.files?.[0]?.text()) ?? null)}
            className="block text-sm text-slate-700"
          />
          <p className="text-xs text-slate-500">JSON as in examples/*.cassette.json or from `npx dualstate cassette export`.</p>
        </div>
      )}
      {createRun.error && (
        <p id={`${fieldId}-error`} role="alert" data-testid="start-run-error" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
          {createRun.error.message}
        </p>
      )}
      <div className="flex justify-end gap-3">
        <button type="button" onClick={onCancel} className="rounded-md px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-100">
          Cancel
        </button>
        <button
          type="submit"
          disabled={createRun.isPending || createRun.isSuccess || Boolean(plan.data?.refusal)}
          className="rounded-md bg-slate-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-slate-700 disabled:opacity-60"
        >
          {createRun.isPending || createRun.isSuccess ? "Starting…" : "Start run"}
        </button>
      </div>
    </form>
  );
}
