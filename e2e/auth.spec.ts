import { expect, test } from "@playwright/test";
import { firstStartAdmin } from "./support/admin";
import { signedInAs } from "./support/users";

test.describe("signed out", () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test("a visitor is sent to sign in; a wrong password says so; the right one opens the dashboard; sign out ends it", async ({ page, request }) => {
    const admin = firstStartAdmin();
    await page.goto("/runs/anything");
    await expect(page).toHaveURL(/\/sign-in$/);

    await page.getByLabel("Email").fill(admin.email);
    await page.getByLabel("Password").fill("not-the-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.locator("#sign-in-error")).toHaveText("Wrong email or password.");

    await page.getByLabel("Password").fill(admin.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByTestId("signed-in-user")).toContainText(`${admin.email}admin`);

    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/sign-in$/);
    await page.goto("/");
    await expect(page).toHaveURL(/\/sign-in$/);

    // The API refuses anonymous callers too, with a message rather than a stack.
    const anonymous = await request.get("/api/trpc/run.listRecent");
    expect(anonymous.status()).toBe(401);
    expect(await anonymous.text()).toContain("Sign in first");
  });
});

test("a viewer can look but not act: no admin pages, and the API refuses their mutations", async ({ browser, request }) => {
  const viewer = await signedInAs(browser, request, "viewer");
  const page = await viewer.context.newPage();
  await page.goto("/");
  await expect(page.getByTestId("signed-in-user")).toContainText("viewer");
  await expect(page.getByRole("link", { name: "Users" })).toHaveCount(0);
  await page.goto("/admin/users");
  await expect(page.getByRole("heading", { name: "Admins only" })).toBeVisible();

  const refused = await viewer.context.request.post("/api/trpc/run.cancel", { data: { json: { id: "any" } } });
  expect(refused.status()).toBe(403);
  expect(await refused.text()).toContain(`This needs the reviewer role; ${viewer.email} is a viewer`);
  const formPost = await viewer.context.request.post("/api/trpc/run.cancel", { form: { id: "any" } });
  expect(formPost.status()).toBe(415);
  await viewer.context.close();
});

test("an admin creates a personal API token that works over HTTP until it is revoked; the audit log shows both", async ({ page, playwright }) => {
  await page.goto("/admin/tokens");
  await page.getByLabel("Name").fill("e2e script");
  await page.getByRole("button", { name: "Create token" }).click();
  const token = (await page.getByTestId("new-token").textContent())?.trim() ?? "";
  expect(token).toMatch(/^dst_/);

  const api = await playwright.request.newContext({ baseURL: page.url().replace(/\/admin\/tokens$/, ""), extraHTTPHeaders: { authorization: `Bearer ${token}` } });
  expect((await api.get("/api/trpc/workflow.list")).status()).toBe(200);

  await page.getByRole("button", { name: "Revoke e2e script" }).click();
  await expect(page.getByTestId("token-row").filter({ hasText: "e2e script" })).toContainText("revoked");
  expect((await api.get("/api/trpc/workflow.list")).status()).toBe(401);
  await api.dispose();

  await page.goto("/admin/audit");
  await expect(page.getByTestId("audit-row").filter({ hasText: "token.created" })).not.toHaveCount(0);
  await expect(page.getByTestId("audit-row").filter({ hasText: "token.revoked" })).not.toHaveCount(0);
  await expect(page.getByTestId("audit-row").filter({ hasText: "sign_in.succeeded" })).not.toHaveCount(0);
});

test("Admin → Users refuses an address the sign-in would refuse, naming the problem, and creates nobody", async ({ page }) => {
  await page.goto("/admin/users");
  const form = page.getByRole("form", { name: "New user" });
  // The browser's own type=email check accepts it; the sign-in would not, so neither does the server.
  await form.getByLabel("Email").fill("ops@intranet");
  await form.getByLabel("Password").fill("a long enough password");
  await form.getByRole("button", { name: "Create user" }).click();
  await expect(form.getByRole("alert")).toContainText("email: needs a dot in its domain");
  await expect(page.getByRole("table", { name: "Users" })).not.toContainText("ops@intranet");
});
