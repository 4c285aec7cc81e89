import { expect, test, type APIRequestContext } from "@playwright/test";
import { collectBrowserErrors } from "./support/browser-errors";
import { signedInAs } from "./support/users";

async function startRun(request: APIRequestContext, workflowName: string, specification: string): Promise<string> {
  const workflow = await request.get(`/api/trpc/workflow.get?input=${encodeURIComponent(JSON.stringify({ json: { name: workflowName } }))}`);
  const workflowId = ((await workflow.json()) as { result: { data: { json: { id: string } } } }).result.data.json.id;
  const created = await request.post("/api/trpc/run.create", { data: { json: { workflowId, specification, generator: "replay" } } });
  expect(created.status(), await created.text()).toBe(200);
  return ((await created.json()) as { result: { data: { json: { id: string } } } }).result.data.json.id;
}

test("the runs list: a search and a filter live in the URL, survive a reload, and back undoes them", async ({ page, request }) => {
  const errors = collectBrowserErrors(page);
  const word = `needle${Date.now()}`;
  const wanted = await startRun(request, "prime-validator", `Check primes, ${word}`);
  const other = await startRun(request, "prime-validator", "Check primes without the word");

  await page.goto("/runs");
  await expect(page.locator(`[data-testid="runs-row"][data-run-id="${other}"]`)).toHaveCount(1);
  await page.getByLabel("Workflow").selectOption("prime-validator");
  await expect(page).toHaveURL(/[?&]workflow=prime-validator/);
  await page.getByLabel("Search").fill(word.toUpperCase());
  await expect(page).toHaveURL(new RegExp(`[?&]q=${word.toUpperCase()}`));
  await expect(page.getByTestId("runs-row")).toHaveCount(1);
  await expect(page.getByTestId("runs-row")).toHaveAttribute("data-run-id", wanted);

  await page.reload();
  await expect(page.getByLabel("Search")).toHaveValue(word.toUpperCase());
  await expect(page.getByLabel("Workflow")).toHaveValue("prime-validator");
  await expect(page.getByTestId("runs-row")).toHaveCount(1);
  await expect(page.getByTestId("page-summary")).toHaveText("1–1 of 1 runs");

  // A shared link opens the same view.
  const shared = await page.context().newPage();
  await shared.goto(page.url());
  await expect(shared.getByTestId("runs-row")).toHaveAttribute("data-run-id", wanted);
  await shared.close();

  await page.goBack();
  await expect(page).not.toHaveURL(/[?&]q=/);
  await expect(page.getByLabel("Search")).toHaveValue("");
  await expect(page.locator(`[data-testid="runs-row"][data-run-id="${other}"]`)).toHaveCount(1);
  expect(errors).toEqual([]);
});

test("an API token gets an expiry and a copy button; the audit log tells it as a sentence, with the raw detail one click away, and fits a phone", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const name = `expiring ${Date.now()}`;
  await page.goto("/admin/tokens");
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Expires").selectOption("7");
  await page.getByRole("button", { name: "Create token" }).click();
  const token = (await page.getByTestId("new-token").textContent())?.trim() ?? "";
  expect(token).toMatch(/^dst_/);
  await page.getByRole("button", { name: "Copy token" }).click();
  await expect(page.getByText("Copied", { exact: true })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
  await expect(page.getByTestId("token-row").filter({ hasText: name })).toContainText(/expires (in 7 days|next week)/);

  // A date past a year is refused by the server, naming the field.
  await page.getByLabel("Name").fill(`${name} too long`);
  await page.getByLabel("Expires").selectOption("date");
  const tooLate = new Date(Date.now() + 400 * 24 * 60 * 60 * 1000);
  await page.getByLabel("Expiry day").fill(`${tooLate.getFullYear()}-${String(tooLate.getMonth() + 1).padStart(2, "0")}-${String(tooLate.getDate()).padStart(2, "0")}`);
  await page.getByRole("button", { name: "Create token" }).click();
  await expect(page.getByRole("form", { name: "New API token" }).getByRole("alert")).toHaveText("expiresAt: must be at most 365 days from now");

  await page.goto("/admin/audit");
  await page.getByLabel("Action").selectOption("token");
  await expect(page).toHaveURL(/[?&]action=token/);
  const row = page.getByTestId("audit-row").filter({ hasText: `created the API token “${name}” for ` });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(/ expiring \d{4}-\d{2}-\d{2}/);
  await expect(row.locator("pre")).toBeHidden();
  await row.getByText("raw", { exact: true }).click();
  await expect(row.locator("pre")).toContainText('"action": "token.created"');

  await page.setViewportSize({ width: 390, height: 800 });
  await expect(page.getByRole("table", { name: "Audit log" })).toBeHidden();
  const card = page.getByTestId("audit-card").filter({ hasText: `created the API token “${name}”` });
  await expect(card).toBeVisible();
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth }));
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
});

test("a user changes their own password on the account page and signs in with it; the old one no longer works", async ({ browser, request }) => {
  const viewer = await signedInAs(browser, request, "viewer");
  const page = await viewer.context.newPage();
  const errors = collectBrowserErrors(page);
  await page.goto("/");
  await page.getByTestId("signed-in-user").getByRole("link", { name: viewer.email }).click();
  await expect(page.getByRole("heading", { name: "Your account" })).toBeVisible();

  const form = page.getByRole("form", { name: "Change password" });
  const newPassword = "a brand new passphrase";
  await form.getByLabel("Current password").fill("not the password at all");
  await form.getByLabel("New password", { exact: true }).fill(newPassword);
  await form.getByLabel("Repeat the new password").fill(newPassword);
  await form.getByRole("button", { name: "Change password" }).click();
  await expect(form.getByRole("alert")).toHaveText("currentPassword: is not your current password");

  await form.getByLabel("Current password").fill(viewer.password);
  await form.getByLabel("New password", { exact: true }).fill(newPassword);
  await form.getByLabel("Repeat the new password").fill(newPassword);
  await form.getByRole("button", { name: "Change password" }).click();
  await expect(form.getByRole("status")).toContainText("Password changed");
  // This session stays.
  await page.reload();
  await expect(page.getByTestId("signed-in-user")).toContainText(viewer.email);
  // The refused attempt above is a 400 the browser reports; nothing else may fail.
  expect(errors.filter((error) => !error.includes("status of 400"))).toEqual([]);
  await viewer.context.close();

  const fresh = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const signIn = await fresh.newPage();
  await signIn.goto("/sign-in");
  await signIn.getByLabel("Email").fill(viewer.email);
  await signIn.getByLabel("Password").fill(viewer.password);
  await signIn.getByRole("button", { name: "Sign in" }).click();
  await expect(signIn.locator("#sign-in-error")).toHaveText("Wrong email or password.");
  await signIn.getByLabel("Password").fill(newPassword);
  await signIn.getByRole("button", { name: "Sign in" }).click();
  await expect(signIn.getByTestId("signed-in-user")).toContainText(`${viewer.email}viewer`);
  await fresh.close();
});
