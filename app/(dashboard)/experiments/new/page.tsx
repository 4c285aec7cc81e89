import type { Metadata } from "next";
import { Suspense } from "react";
import { NewExperimentForm } from "@/components/experiments/new-experiment-form";

export const metadata: Metadata = { title: "New experiment" };

export default function NewExperimentPage() {
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">New experiment</h1>
      <p className="max-w-2xl text-sm text-slate-600">Runs a workflow version over every case of a dataset version, each case k times, at most the given number at once, on the workers like any run.</p>
      {/* The form reads its first choices from the URL (useSearchParams). */}
      <Suspense>
        <NewExperimentForm />
      </Suspense>
    </div>
  );
}
