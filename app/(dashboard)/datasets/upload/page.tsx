import type { Metadata } from "next";
import Link from "next/link";
import { UploadDatasetForm } from "@/components/datasets/upload-dataset-form";

export const metadata: Metadata = { title: "Upload a dataset" };

export default async function UploadDatasetPage({ searchParams }: { searchParams: Promise<{ name?: string | string[] }> }) {
  const { name } = await searchParams;
  return (
    <div className="max-w-3xl space-y-6">
      <div className="space-y-1">
        <p className="text-sm text-slate-500">
          <Link href="/datasets" className="hover:underline">
            Datasets
          </Link>
        </p>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Upload a dataset</h1>
        <p className="text-sm text-slate-600">
          One case per JSONL line, CSV row or YAML list item, each with a <code>specification</code> and optionally a <code>key</code>, <code>variables</code> and <code>checks</code> (a rubric, test code). The formats are described in docs/datasets.md.
        </p>
      </div>
      <UploadDatasetForm initialName={typeof name === "string" ? name.slice(0, 100) : ""} />
    </div>
  );
}
