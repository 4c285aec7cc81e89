import type { Metadata } from "next";
import { Suspense } from "react";
import { connection } from "next/server";
import { DatasetDetail } from "@/components/datasets/dataset-detail";

export const metadata: Metadata = { title: "Dataset" };

export default async function DatasetPage({ params }: { params: Promise<{ id: string }> }) {
  // Rendered per request: there is no database at build time.
  await connection();
  const { id } = await params;
  return (
    // The version and page shown come from the URL (useSearchParams).
    <Suspense>
      <DatasetDetail datasetId={id} />
    </Suspense>
  );
}
