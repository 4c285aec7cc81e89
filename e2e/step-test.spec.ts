import { readFileSync } from "node:fs";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { collectBrowserErrors } from "./support/browser-errors";
import { inspectorOf, selectState } from "./support/designer";

// A cassette answer is its text, or an object with the text and a pause (the bundled examples pause).
type CassetteAnswer = string | { content: string };
const cassette = JSON.parse(readFileSync("examples/tdd-lru-cache.cassette.json", "utf8")) as { steps: { implement: [CassetteAnswer, CassetteAnswer] } };
const textOf = (answer: CassetteAnswer) => (typeof answer === "string" ? answer : answer.content);
const withoutEviction = textOf(cassette.steps.implement[0]);
const lruCache = textOf(cassette.steps.implement[1]);

const trpcGet = async <T>(request: APIRequestContext, path: string, input: unknown): Promise<T> => {
  const response = await request.get(`/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`);
  return ((await response.json()) as { result: { data: { json: T } } }).result.data.json;
};

/** A replayed run of the example, finished, so its tests can be pinned as the implement step's dependency. */
async function finishedReplayRun(request: APIRequestContext): Promise<string> {
  const { id: workflowId } = await trpcGet<{ id: string }>(request, "workflow.get", { name: "tdd-lru-cache" });
  const created = await request.post("/api/trpc/run.create", { data: { json: { workflowId, generator: "replay" } } });
  const runId = ((await created.json()) as { result: { data: { json: { id: string } } } }).result.data.json.id;
  await expect.poll(async () => (await trpcGet<{ status: string }>(request, "run.get", { id: runId })).status, { timeout: 60_000 }).toBe("succeeded");
  return runId;
}

test("a step of a bundled example is tested from the designer with pasted answers (a failing guard's feedback, then every guard passing) and with the configured model, and no run is started", async ({ page, request }) => {
  test.setTimeout(180_000);
  const errors = collectBrowserErrors(page);
  await finishedReplayRun(request);
  const runsBefore = await trpcGet<{ id: string }[]>(request, "run.listRecent", { limit: 100 });

  await page.goto("/workflows/tdd-lru-cache");
  await expect(page.getByRole("tab", { name: "Designer" })).toHaveAttribute("aria-selected", "true");
  await selectState(page, "implementing");
  await inspectorOf(page).getByRole("button", { name: "Test this step" }).click();
  const dialog = page.getByRole("dialog", { name: "Test step implement" });
  await expect(dialog).toBeVisible();

  await test.step("the specification comes from the workflow, the tests are pinned from the earlier run", async () => {
    await expect(dialog.getByLabel("Specification")).toHaveValue(/^Implement an LRU cache class LRUCache\(capacity\)/);
    await dialog.getByLabel("Pin test from an earlier run").selectOption({ index: 1 });
    await expect(dialog.getByLabel("Dependency test (g_test)")).toHaveValue(/def test_evicts_least_recently_used\(\)/);
  });

  await test.step("an answer without eviction fails the tdd guard, which names the failing test", async () => {
    await dialog.getByLabel("A pasted answer").check();
    await dialog.getByLabel(/^Answer/).fill(withoutEviction);
    await dialog.getByRole("button", { name: "Run test" }).click();
    await expect(dialog.getByTestId("step-test-outcome")).toHaveAttribute("data-outcome", "failed", { timeout: 60_000 });
    const verdicts = dialog.getByTestId("guard-verdict");
    await expect(verdicts).toHaveCount(3);
    await expect(verdicts.nth(0)).toHaveAttribute("data-verdict", "pass");
    await expect(verdicts.nth(1)).toHaveAttribute("data-verdict", "pass");
    await expect(verdicts.nth(2)).toHaveAttribute("data-verdict", "fail");
    await expect(verdicts.nth(2)).toContainText("tdd");
    await expect(verdicts.nth(2)).toContainText("test_evicts_least_recently_used");
    await dialog.getByText("Rendered prompt").click();
    await expect(dialog.getByTestId("prompt-message").last()).toContainText("so that these tests pass:");
    await expect(dialog.getByTestId("prompt-message").last()).toContainText("def test_get_returns_put_value");
  });

  await test.step("the LRU cache passes every guard", async () => {
    await dialog.getByLabel(/^Answer/).fill(lruCache);
    await dialog.getByRole("button", { name: "Run test" }).click();
    await expect(dialog.getByTestId("step-test-outcome")).toHaveAttribute("data-outcome", "passed", { timeout: 60_000 });
    await expect(dialog.getByTestId("guard-verdict").and(page.locator('[data-verdict="pass"]'))).toHaveCount(3);
    await expect(dialog.getByTestId("code-block")).toContainText("OrderedDict");
  });

  await test.step("the configured model answers with its (unrelated) function: its reply is shown whole, and the tdd guard fails it", async () => {
    await dialog.getByLabel("The step's model").check();
    await dialog.getByRole("button", { name: "Run test" }).click();
    await expect(dialog.getByTestId("step-test-outcome")).toHaveAttribute("data-outcome", "failed", { timeout: 60_000 });
    await expect(dialog.getByRole("region", { name: "Attempt 1" })).toContainText("fake-e2e-model");
    await expect(dialog.getByTestId("code-block")).toContainText("def add(a, b):");
    await expect(dialog.getByTestId("guard-verdict").nth(2)).toHaveAttribute("data-verdict", "fail");
  });

  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();
  const runsAfter = await trpcGet<{ id: string }[]>(request, "run.listRecent", { limit: 100 });
  expect(runsAfter.map((run) => run.id)).toEqual(runsBefore.map((run) => run.id));
  expect(errors).toEqual([]);
});
