import type { Metadata } from "next";
import Link from "next/link";
import { headers } from "next/headers";
import { DatasetList } from "@/components/datasets/dataset-list";
import { currentActor } from "@/server/auth/app-auth";
import { can } from "@/server/auth/permissions";

export const metadata: Metadata = { title: "Datasets" };

export default async function DatasetsPage() {
  const actor = await currentActor(await headers());
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Datasets</h1>
          <p className="text-sm text-slate-600">Named, versioned lists of cases: a specification, optional variables, and checks a case adds to the workflow&apos;s guards.</p>
        </div>
        {can(actor?.role, "edit_dataset") && (
          <Link href="/datasets/upload" className="rounded-md bg-slate-900 px-3 py-1.5 text-sm font-semibold text-white hover:bg-slate-700">
            Upload a dataset
          </Link>
        )}
      </div>
      <DatasetList />
    </div>
  );
}
