import { PAGE_SIZES } from "@/server/api/schemas/list-page";
import { Button } from "./button";
import { Select } from "./select";

/** "1–25 of 312", previous/next and the page size; `noun` names the rows ("runs"). */
export function Pagination({
  page,
  pageCount,
  pageSize,
  total,
  noun,
  onPage,
  onPageSize,
}: {
  page: number;
  pageCount: number;
  pageSize: number;
  total: number;
  noun: string;
  onPage: (page: number) => void;
  onPageSize: (size: number) => void;
}) {
  const first = total === 0 ? 0 : Math.min((page - 1) * pageSize + 1, total);
  const last = Math.min(page * pageSize, total);
  return (
    <nav aria-label={`Pages of ${noun}`} className="flex flex-wrap items-end justify-between gap-3 text-sm">
      <p className="text-slate-600" data-testid="page-summary">
        {page > pageCount && total > 0 ? `Page ${page} is past the last (${pageCount}); ${total} ${noun} in all` : `${first}–${last} of ${total} ${noun}`}
      </p>
      <div className="flex items-end gap-2">
        <Select label="Per page" value={String(pageSize)} onChange={(event) => onPageSize(Number(event.target.value))} options={PAGE_SIZES.map((size) => ({ value: String(size) }))} />
        <Button onClick={() => onPage(Math.min(page - 1, pageCount))} disabled={page <= 1} aria-label="Previous page">
          ‹ Previous
        </Button>
        <span className="px-1 py-1.5 tabular-nums text-slate-600">
          {Math.min(page, pageCount)} / {pageCount}
        </span>
        <Button onClick={() => onPage(page + 1)} disabled={page >= pageCount} aria-label="Next page">
          Next ›
        </Button>
      </div>
    </nav>
  );
}
