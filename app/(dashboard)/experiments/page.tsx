import type { Metadata } from "next";
import { ExperimentsList } from "@/components/experiments/experiments-list";

export const metadata: Metadata = { title: "Experiments" };

export default function ExperimentsPage() {
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Experiments</h1>
      <ExperimentsList />
    </div>
  );
}
