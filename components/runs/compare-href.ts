/** The comparison page of two runs, A then B. */
export function compareHref(a: string, b: string): string {
  return `/runs/compare?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`;
}
