import type { Metadata } from "next";
import { Suspense } from "react";
import { InsightsDashboard } from "@/components/insights/insights-dashboard";

export const metadata: Metadata = { title: "Metrics" };

export default function InsightsPage() {
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Metrics</h1>
      {/* The range and workflow come from the URL (useSearchParams). */}
      <Suspense>
        <InsightsDashboard />
      </Suspense>
    </div>
  );
}
