import { expect, test, type APIRequestContext } from "@playwright/test";

/** Starts a replayed run of a bundled example over the API and waits for it to end. */
async function finishedReplayRun(request: APIRequestContext, workflowName: string): Promise<string> {
  const workflow = await request.get(`/api/trpc/workflow.get?input=${encodeURIComponent(JSON.stringify({ json: { name: workflowName } }))}`);
  const workflowId = ((await workflow.json()) as { result: { data: { json: { id: string } } } }).result.data.json.id;
  const created = await request.post("/api/trpc/run.create", { data: { json: { workflowId, specification: "Implement an LRU cache", generator: "replay" } } });
  const runId = ((await created.json()) as { result: { data: { json: { id: string } } } }).result.data.json.id;
  await expect
    .poll(async () => {
      const run = await request.get(`/api/trpc/run.get?input=${encodeURIComponent(JSON.stringify({ json: { id: runId } }))}`);
      return ((await run.json()) as { result: { data: { json: { status: string } } } }).result.data.json.status;
    }, { timeout: 60_000 })
    .toBe("succeeded");
  return runId;
}

test("a run's provenance shows the attempt chain and the dependency a guard used, with content and diff on selection", async ({ page, request }) => {
  test.setTimeout(120_000);
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  const runId = await finishedReplayRun(request, "tdd-lru-cache");

  await page.goto(`/runs/${runId}`);
  await page.getByRole("link", { name: "Provenance" }).click();
  await page.waitForURL(`**/runs/${runId}/provenance`);

  const nodes = page.getByTestId("provenance-node");
  await expect(nodes).toHaveCount(3);
  await expect(nodes.filter({ hasText: "write_tests · attempt 1" })).toHaveAttribute("data-tone", "passed");
  await expect(nodes.filter({ hasText: "implement · attempt 1" })).toHaveAttribute("data-tone", "failed");
  await expect(nodes.filter({ hasText: "implement · attempt 2" })).toHaveAttribute("data-tone", "passed");
  // One refinement edge (implement 1 → 2) and two dependency edges (the tests, used by each implementation's guard).
  await expect(page.locator(".react-flow__edge.provenance-edge-refinement")).toHaveCount(1);
  await expect(page.locator(".react-flow__edge.provenance-edge-dependency")).toHaveCount(2);

  await nodes.filter({ hasText: "implement · attempt 2" }).click();
  const details = page.getByTestId("provenance-details");
  await expect(details.getByTestId("code-block")).toContainText("class LRUCache");
  await expect(details.getByTestId("parent-diff")).toBeVisible();

  const download = await page.request.get(`/api/runs/${runId}/provenance`);
  expect(download.headers()["content-disposition"]).toContain(".prov.json");
  const prov = (await download.json()) as { entity: Record<string, unknown>; wasDerivedFrom: Record<string, unknown> };
  expect(Object.keys(prov.entity).filter((key) => key.startsWith("run:artifact/"))).toHaveLength(3);
  expect(Object.keys(prov.wasDerivedFrom)).toHaveLength(1);
  expect(errors).toEqual([]);
});
