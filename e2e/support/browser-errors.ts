import type { Page } from "@playwright/test";

/** Hydration mismatches and client-side exceptions would otherwise pass unnoticed. */
export function collectBrowserErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  return errors;
}
