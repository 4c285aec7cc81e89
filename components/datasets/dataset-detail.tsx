"use client";

import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useId, useState } from "react";
import { useMutation, useQuery } from "@tanstack/react-query";
import { RefusalNote } from "@/components/auth/refusal-note";
import { usePermission } from "@/components/auth/signed-in-user";
import { useTRPC } from "@/components/providers/trpc-provider";
import { ModalDialog } from "@/components/runs/modal-dialog";
import { Button } from "@/components/ui/button";
import { RelativeTime } from "@/components/ui/relative-time";
import { EmptyRows, Table, TableBody, TableHead } from "@/components/ui/table";
import type { ParsedCase } from "@/server/datasets/types";
import type { DatasetCaseView } from "./types";
import { CaseForm } from "./case-form";
import { CaseRow } from "./case-row";
import { useRefreshDatasets } from "./use-refresh-datasets";

const PAGE_SIZE = 50;

type Editing = { kind: "add" } | { kind: "update"; item: DatasetCaseView } | null;

/**
 * A dataset: its versions (newest first, each a link), and one version's cases. On the newest
 * version, people who may edit add, edit or remove cases; each change is saved as a new version.
 */
export function DatasetDetail({ datasetId }: { datasetId: string }) {
  const trpc = useTRPC();
  const refresh = useRefreshDatasets();
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const requested = Number(params.get("version"));
  const page = Math.max(1, Math.min(10_000, Number(params.get("page")) || 1));
  const input = { id: datasetId, ...(Number.isInteger(requested) && requested > 0 ? { version: requested } : {}), page, pageSize: PAGE_SIZE };
  const detail = useQuery(trpc.datasets.get.queryOptions(input));
  const mayEdit = usePermission("edit_dataset");
  const reasonId = useId();
  const [editing, setEditing] = useState<Editing>(null);
  const change = useMutation(
    trpc.datasets.changeCase.mutationOptions({
      onSuccess: async ({ version }) => {
        setEditing(null);
        await refresh();
        router.push(`${pathname}?version=${version}`);
      },
    }),
  );

  if (detail.error) return <p role="alert" className="text-sm text-red-700">{detail.error.message}</p>;
  if (!detail.data) return <p className="text-sm text-slate-500">Loading…</p>;
  const dataset = detail.data;
  const shown = dataset.version;
  const editable = shown?.isLatest === true;
  const pageCount = shown ? Math.max(1, Math.ceil(shown.cases / PAGE_SIZE)) : 1;
  const save = (item: ParsedCase) => {
    if (!shown || !editing) return;
    change.mutate({ datasetId, baseVersion: shown.version, change: editing.kind === "add" ? { kind: "add", case: item } : { kind: "update", key: editing.item.key, case: item } });
  };

  return (
    <div className="space-y-6" data-testid="dataset-detail" data-version={shown?.version}>
      <header className="space-y-1">
        <p className="text-sm text-slate-500">
          <Link href="/datasets" className="hover:underline">
            Datasets
          </Link>
        </p>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{dataset.name}</h1>
        {dataset.description && <p className="text-sm text-slate-600">{dataset.description}</p>}
      </header>

      <section aria-labelledby="versions-title" className="space-y-2">
        <h2 id="versions-title" className="text-lg font-semibold text-slate-900">
          Versions
        </h2>
        <ol className="flex flex-wrap gap-2 text-sm">
          {dataset.versions.map((version) => (
            <li key={version.id}>
              <Link
                href={`${pathname}?version=${version.version}`}
                aria-current={version.version === shown?.version ? "page" : undefined}
                title={`${version.cases} cases, ${version.source} by ${version.createdBy}`}
                className={`inline-block rounded-md border px-2 py-1 ${version.version === shown?.version ? "border-slate-900 bg-slate-900 text-white" : "border-slate-300 text-slate-700 hover:bg-slate-50"}`}
              >
                v{version.version} <span className="opacity-75">· {version.source}</span>
              </Link>
            </li>
          ))}
        </ol>
      </section>

      {shown && (
        <section aria-labelledby="cases-title" className="space-y-3">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <div>
              <h2 id="cases-title" className="text-lg font-semibold text-slate-900" data-testid="cases-title">
                Version {shown.version}: {shown.cases} {shown.cases === 1 ? "case" : "cases"}
              </h2>
              <p className="text-sm text-slate-600">
                {shown.source} by {shown.createdBy}, <RelativeTime date={shown.createdAt} />
                {!editable && " — an older version, kept as it was; edit the newest one."}
              </p>
            </div>
            {editable && (
              <div className="flex flex-wrap items-center gap-2">
                <Link href={`/datasets/upload?name=${encodeURIComponent(dataset.name)}`} className="text-sm font-medium text-sky-700 hover:underline">
                  Upload a new version
                </Link>
                <Button variant="primary" onClick={() => (change.reset(), setEditing({ kind: "add" }))} disabled={!mayEdit.allowed} aria-describedby={mayEdit.reason ? reasonId : undefined}>
                  Add case
                </Button>
                <RefusalNote id={reasonId} reason={mayEdit.reason} />
              </div>
            )}
          </div>
          {change.error && !editing && (
            <p role="alert" className="text-sm text-red-700">
              {change.error.message}
            </p>
          )}
          <Table label={`Cases of version ${shown.version}`}>
            <TableHead columns={["#", "Key", "Specification", "Variables", "Checks", "From", ""]} />
            <TableBody>
              {shown.items.map((item) => (
                <CaseRow
                  key={item.id}
                  item={item}
                  editable={editable && mayEdit.allowed}
                  busy={change.isPending}
                  onEdit={() => (change.reset(), setEditing({ kind: "update", item }))}
                  onRemove={() => change.mutate({ datasetId, baseVersion: shown.version, change: { kind: "remove", key: item.key } })}
                />
              ))}
            </TableBody>
            {shown.items.length === 0 && (
              <caption className="caption-bottom">
                <EmptyRows>No cases on this page.</EmptyRows>
              </caption>
            )}
          </Table>
          {pageCount > 1 && (
            <nav aria-label="Pages of cases" className="flex items-center gap-3 text-sm">
              {page > 1 && <Link href={`${pathname}?version=${shown.version}&page=${page - 1}`}>‹ Previous</Link>}
              <span className="tabular-nums text-slate-600">
                Page {page} of {pageCount}
              </span>
              {page < pageCount && <Link href={`${pathname}?version=${shown.version}&page=${page + 1}`}>Next ›</Link>}
            </nav>
          )}
        </section>
      )}

      {editing && (
        <ModalDialog title={editing.kind === "add" ? "Add a case" : `Edit case ${editing.item.key}`} className="max-w-2xl" onClose={() => setEditing(null)}>
          {(close) => (
            <CaseForm
              initial={editing.kind === "update" ? asParsedCase(editing.item) : undefined}
              busy={change.isPending}
              error={change.error?.message ?? null}
              onSubmit={save}
              onCancel={close}
            />
          )}
        </ModalDialog>
      )}
    </div>
  );
}

function asParsedCase(item: DatasetCaseView): ParsedCase {
  return { key: item.key, specification: item.specification, ...(item.variables ? { variables: item.variables } : {}), ...(item.checks ? { checks: item.checks } : {}) };
}
