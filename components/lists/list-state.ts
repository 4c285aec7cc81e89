import { DEFAULT_PAGE_SIZE, MAX_PAGE, MAX_PAGE_SIZE, MAX_SEARCH_LENGTH, PAGE_SIZES } from "@/server/api/schemas/list-page";

/**
 * A list page's state as it lives in the URL: search text, filters, page number and page size.
 * Pure: parse what a (possibly hand-edited) query string says, keeping only what is valid, and
 * write a state back as the shortest query string (defaults left out), so links stay shareable.
 */

/** What one filter may hold: one of a fixed set, a day (YYYY-MM-DD), or short free text. */
export type FilterSpec =
  | { readonly kind: "choice"; readonly values: readonly string[]; readonly default?: string }
  | { readonly kind: "day" }
  | { readonly kind: "text"; readonly maxLength?: number };

export type FilterSpecs = Readonly<Record<string, FilterSpec>>;

export interface ListState<F extends FilterSpecs = FilterSpecs> {
  readonly search: string;
  /** Unset filters are "" (or the choice's default). */
  readonly filters: { readonly [K in keyof F]: string };
  readonly page: number;
  readonly pageSize: number;
}

export const SEARCH_PARAM = "q";
export const PAGE_PARAM = "page";
export const PAGE_SIZE_PARAM = "size";
const RESERVED = new Set([SEARCH_PARAM, PAGE_PARAM, PAGE_SIZE_PARAM]);
const DEFAULT_TEXT_FILTER_LENGTH = 200;

function parseWholeNumber(raw: string | null): number | null {
  if (raw === null || !/^\d{1,9}$/.test(raw.trim())) return null;
  return Number(raw.trim());
}

/** A real calendar day written YYYY-MM-DD (2026-02-30 is not one). */
export function isDay(raw: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(raw);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function defaultOf(spec: FilterSpec): string {
  return spec.kind === "choice" ? (spec.default ?? "") : "";
}

function parseFilter(spec: FilterSpec, raw: string | null): string {
  if (raw === null) return defaultOf(spec);
  const value = raw.trim();
  switch (spec.kind) {
    case "choice":
      return spec.values.includes(value) ? value : defaultOf(spec);
    case "day":
      return isDay(value) ? value : "";
    case "text":
      return value.slice(0, spec.maxLength ?? DEFAULT_TEXT_FILTER_LENGTH);
  }
}

/** The state a query string describes; anything unknown, malformed or out of bounds falls back to its default. */
export function parseListState<F extends FilterSpecs>(params: URLSearchParams, filters: F, defaultPageSize: number = DEFAULT_PAGE_SIZE): ListState<F> {
  const search = (params.get(SEARCH_PARAM) ?? "").trim().slice(0, MAX_SEARCH_LENGTH);
  const page = parseWholeNumber(params.get(PAGE_PARAM));
  const pageSize = parseWholeNumber(params.get(PAGE_SIZE_PARAM));
  const parsed = {} as { [K in keyof F]: string };
  for (const key of Object.keys(filters) as (keyof F & string)[]) {
    parsed[key] = RESERVED.has(key) ? defaultOf(filters[key]!) : parseFilter(filters[key]!, params.get(key));
  }
  return {
    search,
    filters: parsed,
    page: page !== null && page >= 1 ? Math.min(page, MAX_PAGE) : 1,
    pageSize: pageSize !== null && (PAGE_SIZES as readonly number[]).includes(pageSize) ? Math.min(pageSize, MAX_PAGE_SIZE) : defaultPageSize,
  };
}

/** The shortest query string for a state: filters in spec order, then search, page and size, defaults omitted. */
export function serializeListState<F extends FilterSpecs>(state: ListState<F>, filters: F, defaultPageSize: number = DEFAULT_PAGE_SIZE): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of Object.keys(filters) as (keyof F & string)[]) {
    const value = parseFilter(filters[key]!, state.filters[key] ?? null);
    if (value !== defaultOf(filters[key]!)) params.set(key, value);
  }
  const search = state.search.trim().slice(0, MAX_SEARCH_LENGTH);
  if (search) params.set(SEARCH_PARAM, search);
  if (state.page > 1) params.set(PAGE_PARAM, String(Math.min(Math.floor(state.page), MAX_PAGE)));
  if (state.pageSize !== defaultPageSize && (PAGE_SIZES as readonly number[]).includes(state.pageSize)) params.set(PAGE_SIZE_PARAM, String(state.pageSize));
  return params;
}

/** A change to the state: changing what is listed (search, filters, size) goes back to page 1. */
export function applyListChange<F extends FilterSpecs>(
  state: ListState<F>,
  change: { search?: string; filters?: Partial<{ [K in keyof F]: string }>; page?: number; pageSize?: number },
): ListState<F> {
  const narrows = change.search !== undefined || change.filters !== undefined || change.pageSize !== undefined;
  return {
    search: change.search ?? state.search,
    filters: { ...state.filters, ...change.filters },
    pageSize: change.pageSize ?? state.pageSize,
    page: change.page ?? (narrows ? 1 : state.page),
  };
}

/**
 * The instants a from/to pair of days covers in the viewer's time zone: from the start of the
 * first day to the start of the day after the last (exclusive), as list procedures take them.
 */
export function dayRange(from: string, to: string): { from?: Date; to?: Date } {
  const start = (day: string) => {
    const [year, month, date] = day.split("-").map(Number) as [number, number, number];
    return new Date(year, month - 1, date);
  };
  return {
    ...(isDay(from) ? { from: start(from) } : {}),
    ...(isDay(to) ? { to: new Date(start(to).getFullYear(), start(to).getMonth(), start(to).getDate() + 1) } : {}),
  };
}
