"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useEffect, useMemo, useRef } from "react";
import { applyListChange, parseListState, serializeListState, type FilterSpecs, type ListState } from "./list-state";

export type ListChange<F extends FilterSpecs> = Parameters<typeof applyListChange<F>>[1];

/**
 * A list's state kept in the page's URL: every change is a history entry (back and forward step
 * through them, a copied link opens the same view); typing a search replaces the entry instead,
 * so one search is one step back. `filters` must be a module-level constant.
 */
export function useListState<F extends FilterSpecs>(filters: F, defaultPageSize?: number): { state: ListState<F>; update: (change: ListChange<F>) => void } {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const query = params.toString();
  const state = useMemo(() => parseListState(new URLSearchParams(query), filters, defaultPageSize), [query, filters, defaultPageSize]);
  // The query last asked for: two changes in a row (a status, then a workflow) build on each
  // other even before the router has put the first one in the URL.
  const latest = useRef(query);
  useEffect(() => {
    latest.current = query;
  }, [query]);
  const update = useCallback(
    (change: ListChange<F>) => {
      const base = parseListState(new URLSearchParams(latest.current), filters, defaultPageSize);
      const next = serializeListState(applyListChange(base, change), filters, defaultPageSize).toString();
      if (next === latest.current) return;
      latest.current = next;
      const url = next ? `${pathname}?${next}` : pathname;
      const onlySearch = change.search !== undefined && change.filters === undefined && change.page === undefined && base.search !== "";
      if (onlySearch) router.replace(url, { scroll: false });
      else router.push(url, { scroll: false });
    },
    [filters, defaultPageSize, pathname, router],
  );
  return { state, update };
}
