import { Suspense } from "react";
import { RunsBrowser } from "@/components/runs/runs-browser";

export default function RunsPage() {
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Runs</h1>
      {/* The list reads its search and filters from the URL (useSearchParams). */}
      <Suspense>
        <RunsBrowser />
      </Suspense>
    </div>
  );
}
