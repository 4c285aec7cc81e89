"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";
import { RelativeTime } from "@/components/ui/relative-time";
import { EmptyRows, Table, TableBody, TableHead, Td } from "@/components/ui/table";

/** Every dataset with its newest version: how many cases and when it changed. */
export function DatasetList() {
  const trpc = useTRPC();
  const datasets = useQuery(trpc.datasets.list.queryOptions());
  if (datasets.error) return <p role="alert" className="text-sm text-red-700">{datasets.error.message}</p>;
  const rows = datasets.data ?? [];
  return (
    <Table label="Datasets">
      <TableHead columns={["Name", "Description", "Version", "Cases", "Changed"]} />
      <TableBody>
        {rows.map((dataset) => (
          <tr key={dataset.id} data-testid="dataset-row">
            <Td>
              <Link href={`/datasets/${dataset.id}`} className="font-medium text-sky-700 hover:underline">
                {dataset.name}
              </Link>
            </Td>
            <Td className="max-w-md text-slate-600">{dataset.description}</Td>
            <Td className="tabular-nums">{dataset.latest ? `v${dataset.latest.version}` : "—"}</Td>
            <Td className="tabular-nums">{dataset.latest?.cases ?? 0}</Td>
            <Td>
              <RelativeTime date={dataset.updatedAt} />
            </Td>
          </tr>
        ))}
      </TableBody>
      {datasets.isSuccess && rows.length === 0 && (
        <caption className="caption-bottom">
          <EmptyRows>No datasets yet: upload a JSONL, CSV or YAML file of cases, or add a finished run to one from its page.</EmptyRows>
        </caption>
      )}
    </Table>
  );
}
