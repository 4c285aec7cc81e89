import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { collectBrowserErrors } from "./support/browser-errors";

// Replaying a cassette runs the real guards (Python tests in the sandbox) in the server's worker.
const RUN_TIMEOUT = 60_000;

/** Starts a replayed run of a bundled example through the API and returns its id. */
async function startReplayRun(request: APIRequestContext, workflowName: string): Promise<string> {
  const workflow = await request.get(`/api/trpc/workflow.get?input=${encodeURIComponent(JSON.stringify({ json: { name: workflowName } }))}`);
  const workflowId = ((await workflow.json()) as { result: { data: { json: { id: string } } } }).result.data.json.id;
  const created = await request.post("/api/trpc/run.create", { data: { json: { workflowId, generator: "replay" } } });
  return ((await created.json()) as { result: { data: { json: { id: string } } } }).result.data.json.id;
}

const status = (page: Page) => page.getByTestId("run-header").getByTestId("run-status");

test("fork a replayed run from its first attempt with edited feedback; the fork runs to its end, names its origin, and compares with it", async ({ page, request }) => {
  test.setTimeout(2 * RUN_TIMEOUT + 60_000);
  const browserErrors = collectBrowserErrors(page);
  const originalId = await startReplayRun(request, "tdd-lru-cache");
  await page.goto(`/runs/${originalId}`);
  await expect(status(page)).toHaveText("succeeded", { timeout: RUN_TIMEOUT });
  await expect(page.getByTestId("forked-from")).toHaveCount(0);

  await test.step("Fork on the first attempt opens the edit, prefilled with what the attempt got", async () => {
    const firstAttempt = page.locator('[data-testid="step-attempts"][data-step="write_tests"]').getByTestId("attempt").first();
    await firstAttempt.getByRole("button", { name: "Fork", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Fork from write_tests attempt 1" });
    await expect(dialog).toBeVisible();
    // A first attempt received no feedback; its recorded prompt is there to edit.
    await expect(dialog.getByLabel("Feedback for this attempt")).toHaveValue("");
    await expect(dialog.getByLabel("Prompt")).toHaveValue(/Write tests for:/);
    await dialog.getByLabel("Feedback for this attempt").fill("Also cover a cache of capacity 1.");
    await dialog.getByRole("button", { name: "Start fork" }).click();
  });

  await page.waitForURL((url) => /\/runs\/[0-9a-f-]+$/.test(url.pathname) && !url.pathname.endsWith(originalId));
  const forkId = new URL(page.url()).pathname.split("/").at(-1) ?? "";

  await test.step("the fork reaches its end and shows where it came from", async () => {
    await expect(status(page)).toHaveText("succeeded", { timeout: RUN_TIMEOUT });
    const origin = page.getByTestId("forked-from");
    await expect(origin).toContainText(`run ${originalId}`);
    await expect(origin).toContainText("write_tests/attempt-1");
    await expect(page.getByTestId("ledger-row").first()).toContainText("run.forked");
    await expect(page.getByTestId("attempt")).toHaveCount(3);
    // The edit that made the difference, in the fork's header.
    await expect(origin.getByTestId("fork-edit-feedback")).toHaveText("Also cover a cache of capacity 1.");
  });

  await test.step("Compare with the original shows both runs side by side, attempt by attempt", async () => {
    await page.getByRole("link", { name: "Compare with the original" }).click();
    await page.waitForURL(`**/runs/compare?a=${originalId}&b=${forkId}`);
    await expect(page.getByTestId("compared-run-a")).toContainText(`run ${originalId}`);
    await expect(page.getByTestId("compared-run-b")).toContainText(`run ${forkId}`);
    await expect(page.getByTestId("compared-run-b")).toContainText("Forked from");
    await expect(page.getByTestId("compared-run-b").getByTestId("fork-edit-feedback")).toHaveText("Also cover a cache of capacity 1.");
    await expect(page.locator('[data-testid="attempt-pair"][data-key="write_tests/attempt-1"]')).toHaveAttribute("data-fork-point", "B");
    for (const side of ["compared-run-a", "compared-run-b"]) await expect(page.getByTestId(side).getByTestId("run-status")).toHaveText("succeeded");
    const pairs = page.getByTestId("attempt-pair");
    await expect(pairs).toHaveCount(3);
    await expect(pairs.nth(0)).toHaveAttribute("data-key", "write_tests/attempt-1");
    // The replay answers the forked attempt with the same recorded content, so the runs agree.
    await expect(page.getByTestId("pair-same")).toHaveCount(3);
    const retried = page.locator('[data-testid="attempt-pair"][data-key="implement/attempt-1"]');
    await expect(retried.getByTestId("pair-a").getByTestId("attempt-verdict")).toHaveText("failed");
    await expect(retried.getByTestId("pair-b").getByTestId("attempt-verdict")).toHaveText("failed");
  });

  expect(browserErrors).toEqual([]);
});
