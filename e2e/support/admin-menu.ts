import type { Page } from "@playwright/test";

/** Opens an administration page the way a person does: the main navigation's Admin menu, then the page. */
export async function openAdminPage(page: Page, label: string): Promise<void> {
  const nav = page.getByRole("navigation", { name: "Main" });
  await nav.getByText("Admin", { exact: true }).click();
  await nav.getByRole("link", { name: label }).click();
}
