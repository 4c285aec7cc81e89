"use client";

import { useRouter, useSearchParams } from "next/navigation";
import { useState, type FormEvent } from "react";
import { useMutation, useQuery } from "@tanstack/react-query";
import { usePermission } from "@/components/auth/signed-in-user";
import { useTRPC } from "@/components/providers/trpc-provider";
import { Button } from "@/components/ui/button";
import { fieldClass, Select } from "@/components/ui/select";

type GeneratorChoice = "configured" | "replay" | "cassette-file";

/**
 * Workflow and version, dataset and version, k, concurrency and how the steps generate; starts the
 * experiment and opens its live page. `?workflow=<id>&dataset=<id>` in the URL chooses them first
 * (a dataset's or a workflow's page links here).
 */
export function NewExperimentForm() {
  const trpc = useTRPC();
  const router = useRouter();
  const searchParams = useSearchParams();
  const permission = usePermission("start_experiment");
  const options = useQuery(trpc.experiments.formOptions.queryOptions());
  const [workflowId, setWorkflowId] = useState(searchParams.get("workflow") ?? "");
  const [version, setVersion] = useState("");
  const [datasetId, setDatasetId] = useState(searchParams.get("dataset") ?? "");
  const [datasetVersion, setDatasetVersion] = useState("");
  const [k, setK] = useState(1);
  const [concurrency, setConcurrency] = useState(4);
  const [name, setName] = useState("");
  const [generator, setGenerator] = useState<GeneratorChoice>("configured");
  const [cassette, setCassette] = useState<string | null>(null);
  const [noDelay, setNoDelay] = useState(true);
  const create = useMutation(trpc.experiments.create.mutationOptions({ onSuccess: ({ id }) => router.push(`/experiments/${id}`) }));

  const workflows = options.data?.workflows ?? [];
  const datasets = options.data?.datasets ?? [];
  const workflow = workflows.find((item) => item.id === workflowId) ?? workflows[0];
  const dataset = datasets.find((item) => item.id === datasetId) ?? datasets[0];
  const choices: GeneratorChoice[] = workflow?.bundledCassette ? ["configured", "replay", "cassette-file"] : ["configured", "cassette-file"];

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!workflow || !dataset) return;
    create.mutate({
      workflowId: workflow.id,
      version: version ? Number(version) : undefined,
      datasetId: dataset.id,
      datasetVersion: datasetVersion ? Number(datasetVersion) : undefined,
      k,
      concurrency,
      name: name.trim() || undefined,
      generator: generator === "configured" ? "configured" : "replay",
      cassette: generator === "cassette-file" ? (cassette ?? "") : undefined,
      noDelay: generator === "configured" ? undefined : noDelay,
    });
  }

  if (options.isPending) return <p className="text-sm text-slate-500">Loading workflows and datasets…</p>;
  if (options.error) return <p role="alert" className="text-sm text-red-700">{options.error.message}</p>;
  if (datasets.length === 0) return <p className="text-sm text-slate-600">No datasets yet: create one under Datasets (upload JSONL, CSV or YAML), then come back.</p>;
  return (
    <form onSubmit={submit} className="max-w-2xl space-y-4" aria-label="New experiment">
      <div className="flex flex-wrap gap-4">
        <Select label="Workflow" value={workflow?.id ?? ""} onChange={(event) => (setWorkflowId(event.target.value), setVersion(""), setGenerator("configured"))} options={workflows.map((item) => ({ value: item.id, label: item.name }))} />
        <Select label="Workflow version" value={version} onChange={(event) => setVersion(event.target.value)} options={[{ value: "", label: "latest" }, ...(workflow?.versions ?? []).map((v) => ({ value: String(v), label: `v${v}` }))]} />
        <Select label="Dataset" value={dataset?.id ?? ""} onChange={(event) => (setDatasetId(event.target.value), setDatasetVersion(""))} options={datasets.map((item) => ({ value: item.id, label: item.name }))} />
        <Select
          label="Dataset version"
          value={datasetVersion}
          onChange={(event) => setDatasetVersion(event.target.value)}
          options={[{ value: "", label: "latest" }, ...(dataset?.versions ?? []).map((v) => ({ value: String(v.version), label: `v${v.version} (${v.cases} cases)` }))]}
        />
      </div>
      <div className="flex flex-wrap gap-4">
        <label className="flex flex-col gap-1 text-sm font-medium">
          Samples per case (k)
          <input type="number" min={1} max={20} value={k} onChange={(event) => setK(Number(event.target.value))} className={`${fieldClass} w-28`} />
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          Concurrency
          <input type="number" min={1} max={64} value={concurrency} onChange={(event) => setConcurrency(Number(event.target.value))} className={`${fieldClass} w-28`} />
        </label>
        <label className="flex flex-1 flex-col gap-1 text-sm font-medium">
          Name (optional)
          <input value={name} maxLength={200} onChange={(event) => setName(event.target.value)} className={fieldClass} aria-describedby="experiment-name-hint" />
          <span id="experiment-name-hint" className="text-xs font-normal text-slate-500">Without one: the workflow, dataset and k.</span>
        </label>
      </div>
      <Select
        label="Generation"
        value={generator}
        onChange={(event) => setGenerator(event.target.value as GeneratorChoice)}
        options={choices.map((choice) => ({ value: choice, label: choice === "configured" ? "The workflow's models" : choice === "replay" ? "Replay the bundled cassette" : "Replay a cassette file" }))}
      />
      {generator === "cassette-file" && (
        <label className="flex flex-col gap-1 text-sm font-medium">
          Cassette file
          <input type="file" accept=".json,application/json" onChange={async (event) => setCassette((await event.target.files?.[0]?.text()) ?? null)} />
        </label>
      )}
      {generator !== "configured" && (
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={noDelay} onChange={(event) => setNoDelay(event.target.checked)} />
          Replay without the cassette&apos;s pauses
        </label>
      )}
      {create.error && (
        <p role="alert" className="text-sm text-red-700">
          {create.error.message}
        </p>
      )}
      <Button type="submit" variant="primary" disabled={!permission.allowed || create.isPending || (generator === "cassette-file" && !cassette)} title={permission.reason ?? undefined}>
        {create.isPending ? "Starting…" : "Start experiment"}
      </Button>
    </form>
  );
}
