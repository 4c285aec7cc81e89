import { expect, test } from "@playwright/test";

test("the runs page lists runs with workflow, attempts and duration, filtered by status and workflow", async ({ page, request }) => {
  const workflow = await request.get(`/api/trpc/workflow.get?input=${encodeURIComponent(JSON.stringify({ json: { name: "prime-validator" } }))}`);
  const workflowId = ((await workflow.json()) as { result: { data: { json: { id: string } } } }).result.data.json.id;
  const created = await request.post("/api/trpc/run.create", { data: { json: { workflowId, specification: "Check primes", generator: "replay" } } });
  const runId = ((await created.json()) as { result: { data: { json: { id: string } } } }).result.data.json.id;

  await page.goto("/");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Runs" }).click();
  await page.waitForURL("**/runs");
  const row = page.locator(`[data-testid="runs-row"][data-run-id="${runId}"]`);
  await expect(row).toContainText("prime-validator v1");
  // The replayed prime validator exhausts its three attempts and fails; the list refreshes by itself.
  await expect(row.getByTestId("run-status")).toHaveText("failed", { timeout: 60_000 });
  await expect(row).toContainText("3");

  await page.getByLabel("Status").selectOption("succeeded");
  await expect(row).toHaveCount(0);
  await page.getByLabel("Status").selectOption("failed");
  await page.getByLabel("Workflow").selectOption("prime-validator");
  await expect(row).toHaveCount(1);
  for (const status of await page.getByTestId("runs-row").getByTestId("run-status").allTextContents()) expect(status).toBe("failed");
});
