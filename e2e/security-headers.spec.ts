import { expect, test } from "@playwright/test";
import { collectBrowserErrors } from "./support/browser-errors";
import { recordViolations } from "./support/csp-violations";

test("pages carry a nonce-based CSP and the other security headers, and work under it: no violations, live updates flow", async ({ page }) => {
  test.setTimeout(120_000);
  const errors = collectBrowserErrors(page);
  const violations = await recordViolations(page);

  const home = await page.goto("/");
  const headers = home!.headers();
  expect(headers["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
  expect(headers["content-security-policy"]).not.toContain("unsafe-eval");
  expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(headers["x-frame-options"]).toBe("DENY");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("same-origin");
  const row = page.getByTestId("workflow-row").filter({ hasText: "tdd-lru-cache" });
  await expect(row).toBeVisible();

  // A run page: the client renders, and the run's events arrive over server-sent events under the policy.
  await row.getByRole("button", { name: "Run", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Run tdd-lru-cache" });
  await dialog.getByRole("button", { name: "Start run" }).click();
  await page.waitForURL(/\/runs\/[0-9a-f-]+$/);
  await expect(page.getByTestId("run-header").getByTestId("run-status")).toHaveText("succeeded", { timeout: 60_000 });
  await expect(page.getByTestId("ledger-row").last()).toContainText("run.finished");

  for (const path of ["/runs", "/escalations"]) {
    await page.goto(path);
    await expect(page.getByTestId("signed-in-user")).toBeVisible();
  }
  expect(await violations()).toEqual([]);
  expect(errors.filter((error) => /Content Security Policy|Refused to/i.test(error))).toEqual([]);
  expect(errors).toEqual([]);
});

test("the APIs answer with the data-only policy; a form-encoded sign-in is refused with 415", async ({ request }) => {
  const api = await request.get("/api/trpc/run.listRecent");
  expect(api.headers()["content-security-policy"]).toContain("default-src 'none'");
  expect(api.headers()["x-frame-options"]).toBe("DENY");
  expect(api.headers()["x-content-type-options"]).toBe("nosniff");

  const form = await request.post("/api/auth/sign-in/email", { form: { email: "admin@e2e.test", password: "whatever-password" } });
  expect(form.status()).toBe(415);
  expect(((await form.json()) as { code: string }).code).toBe("UNSUPPORTED_MEDIA_TYPE");
});
