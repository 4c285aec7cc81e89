"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";
import { Button } from "@/components/ui/button";
import { Select } from "@/components/ui/select";

/** With a baseline chosen (the experiment page's "Compare with…"), the other experiments over the same dataset to compare it with. */
export function ComparePicker({ baselineId }: { baselineId: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const [candidate, setCandidate] = useState("");
  const baseline = useQuery(trpc.experiments.get.queryOptions({ id: baselineId }));
  const datasetId = baseline.data?.dataset.id;
  const others = useQuery(trpc.experiments.list.queryOptions({ page: 1, pageSize: 100, datasetId: datasetId ?? "" }, { enabled: datasetId !== undefined }));
  if (baseline.error) return <p role="alert" className="text-sm text-red-700">{baseline.error.message}</p>;
  const options = (others.data?.items ?? []).filter((item) => item.id !== baselineId);
  return (
    <form
      className="flex flex-wrap items-end gap-3"
      aria-label="Choose the candidate"
      onSubmit={(event) => {
        event.preventDefault();
        if (candidate) router.push(`/experiments/compare?a=${encodeURIComponent(baselineId)}&b=${encodeURIComponent(candidate)}`);
      }}
    >
      <p className="w-full text-sm text-slate-600">Baseline: {baseline.data?.name ?? "…"}</p>
      <Select label="Candidate" value={candidate} onChange={(event) => setCandidate(event.target.value)} options={[{ value: "", label: options.length > 0 ? "choose…" : "no other experiment on this dataset" }, ...options.map((item) => ({ value: item.id, label: `${item.name} (${item.status})` }))]} />
      <Button type="submit" variant="primary" disabled={!candidate}>
        Compare
      </Button>
    </form>
  );
}
