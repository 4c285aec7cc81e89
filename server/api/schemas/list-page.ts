import { z } from "zod";

/**
 * The bounds every paged list shares (runs, escalations, workflows, the audit log), defined once:
 * the procedures validate with them and the pages' URL state (components/lists/list-state.ts)
 * clamps to them, so a hand-edited link can never ask for more than a procedure accepts.
 */
export const PAGE_SIZES = [10, 25, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 100;
/** Past this page nobody pages by hand; search or filter instead. */
export const MAX_PAGE = 10_000;
export const MAX_SEARCH_LENGTH = 200;

export const searchText = z.string().trim().max(MAX_SEARCH_LENGTH, `must be at most ${MAX_SEARCH_LENGTH} characters`);
export const pageNumber = z.number().int("must be a whole number").min(1, "must be at least 1").max(MAX_PAGE, `must be at most ${MAX_PAGE}`);
export const pageSize = z.number().int("must be a whole number").min(1, "must be at least 1").max(MAX_PAGE_SIZE, `must be at most ${MAX_PAGE_SIZE}`);

/** Search text, page number and page size: spread into a list procedure's input object. */
export const listPageFields = {
  search: searchText.optional(),
  page: pageNumber.default(1),
  pageSize: pageSize.default(DEFAULT_PAGE_SIZE),
};

/** Created at or after `from` and before `to`. */
export const dateRangeFields = {
  from: z.date().optional(),
  to: z.date().optional(),
};
