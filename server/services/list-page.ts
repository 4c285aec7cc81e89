/** Offset paging shared by the list services: which rows a page is, and the page as callers see it. */
export interface PageRequest {
  readonly page: number;
  readonly pageSize: number;
}

export interface Page<T> {
  readonly items: T[];
  /** Rows matching the search and filters, over all pages. */
  readonly total: number;
  readonly page: number;
  readonly pageSize: number;
  /** At least 1, so "page 1 of 1" reads right for an empty list. */
  readonly pageCount: number;
}

export function pageWindow(request: PageRequest): { skip: number; take: number } {
  return { skip: (request.page - 1) * request.pageSize, take: request.pageSize };
}

export function toPage<T>(items: T[], total: number, request: PageRequest): Page<T> {
  return { items, total, page: request.page, pageSize: request.pageSize, pageCount: Math.max(1, Math.ceil(total / request.pageSize)) };
}

/** A long text cut for a list row; the detail page shows it whole. */
export function excerpt(text: string, length = 200): string {
  return text.length > length ? `${text.slice(0, length)}…` : text;
}
