import { expect, test, type Locator } from "@playwright/test";
import { pendingEscalationOf, startEscalatingRun } from "./support/escalations";
import { signedInAs } from "./support/users";

/** A control a role may not use: disabled, with the reason beside it and in its description. */
async function expectRefused(control: Locator, reason: string) {
  await expect(control).toBeDisabled();
  await expect(control).toHaveAccessibleDescription(reason);
}

test("a viewer sees Run, Fork, Save, New workflow and Cancel disabled with the reason, and no admin links", async ({ browser, request }) => {
  test.setTimeout(120_000);
  const runId = await startEscalatingRun(request, "Report disk usage (roles)");
  const escalation = await pendingEscalationOf(request, runId);
  const viewer = await signedInAs(browser, request, "viewer");
  const page = await viewer.context.newPage();

  await page.goto("/");
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "Escalations" })).toBeVisible();
  for (const admin of ["Users", "API tokens", "Audit log"]) await expect(nav.getByRole("link", { name: admin })).toHaveCount(0);
  await page.getByLabel("New workflow name").fill("viewer-made");
  await expectRefused(page.getByRole("button", { name: "New workflow" }), "Viewers cannot create workflows");
  const workflowRow = page.locator("li, tr").filter({ hasText: "sandbox-escalation" }).first();
  await expectRefused(workflowRow.getByRole("button", { name: "Run", exact: true }), "Viewers cannot start runs");

  await page.goto("/workflows/sandbox-escalation");
  await expectRefused(page.getByRole("button", { name: "Save", exact: true }), "Viewers cannot save workflows");
  await expectRefused(page.getByRole("button", { name: "Run", exact: true }), "Viewers cannot start runs");

  await page.goto(`/runs/${runId}`);
  await expectRefused(page.getByRole("button", { name: "Cancel run", exact: true }), "Viewers cannot cancel runs");
  await expect(page.getByRole("button", { name: "Re-run" })).toBeDisabled();
  await expectRefused(page.getByRole("button", { name: "Fork", exact: true }).first(), "Viewers cannot fork runs");

  // The review page: readable, no decisions, no claim, and the shortcuts do nothing that needs a role.
  await page.goto(`/escalations/${escalation.id}`);
  await expect(page.getByTestId("no-decision")).toContainText("needs the reviewer or admin role");
  await expect(page.getByRole("button", { name: "Claim" })).toHaveCount(0);
  await page.locator("body").press("a");
  await page.locator("body").press("c");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page.getByTestId("claimed-by")).toHaveText("Claimed by nobody");

  // The server refuses whatever the page shows.
  const refused = await viewer.context.request.post("/api/trpc/escalation.claim", { data: { json: { escalationId: escalation.id } } });
  expect(refused.status()).toBe(403);
  await viewer.context.close();
});
