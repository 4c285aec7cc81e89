import { expect, test } from "@playwright/test";

test("the run page follows a run live over server-sent events and catches up after losing the connection", async ({ page, context }) => {
  test.setTimeout(120_000);
  await page.goto("/");
  const row = page.getByTestId("workflow-row").filter({ hasText: "tdd-lru-cache" });
  await row.getByRole("button", { name: "Run", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Run tdd-lru-cache" });
  await dialog.getByRole("button", { name: "Start run" }).click();
  await page.waitForURL(/\/runs\/[0-9a-f-]+$/);

  // The connection drops while the run goes on, then comes back: the stream resumes from the last
  // event it delivered (or the page polls meanwhile) and the view reaches the run's real end.
  await context.setOffline(true);
  await page.waitForTimeout(1_500);
  await context.setOffline(false);

  await expect(page.getByTestId("run-header").getByTestId("run-status")).toHaveText("succeeded", { timeout: 60_000 });
  await expect(page.getByTestId("attempt")).toHaveCount(3);
  await expect(page.getByTestId("ledger-row").last()).toContainText("run.finished");
  await expect(page.getByTestId("state-machine").locator('[data-testid="state-node"][data-state="done"]')).toHaveAttribute("data-current", "true");
});

test("a running run's page streams: the live marker shows while it waits on a person", async ({ page, request }) => {
  const workflow = await request.get(`/api/trpc/workflow.get?input=${encodeURIComponent(JSON.stringify({ json: { name: "sandbox-escalation" } }))}`);
  const workflowId = ((await workflow.json()) as { result: { data: { json: { id: string } } } }).result.data.json.id;
  const created = await request.post("/api/trpc/run.create", { data: { json: { workflowId, specification: "Clean up", generator: "replay" } } });
  const runId = ((await created.json()) as { result: { data: { json: { id: string } } } }).result.data.json.id;
  await page.goto(`/runs/${runId}`);
  await expect(page.getByTestId("run-header").getByTestId("run-status")).toHaveText("suspended", { timeout: 60_000 });
  await expect(page.getByTestId("run-live")).toHaveAttribute("data-streaming", "true");
  await expect(page.getByTestId("run-live")).toHaveText("live");

  // Cancel ends it (its escalation with it); Re-run starts the same run again on a page of its own.
  await page.getByRole("button", { name: "Cancel run" }).click();
  await page.getByRole("dialog", { name: "Cancel this run?" }).getByRole("button", { name: "Yes, cancel the run" }).click();
  await expect(page.getByTestId("run-header").getByTestId("run-status")).toHaveText("cancelled", { timeout: 30_000 });
  await expect(page.getByRole("button", { name: "Cancel run" })).toHaveCount(0);
  await page.getByRole("button", { name: "Re-run" }).click();
  await page.waitForURL((url) => /\/runs\/[0-9a-f-]+$/.test(url.pathname) && !url.pathname.endsWith(runId));
  await expect(page.getByTestId("run-header").getByTestId("run-status")).toHaveText("suspended", { timeout: 60_000 });
  await expect(page.getByTestId("run-specification")).toHaveText("Clean up");
});
