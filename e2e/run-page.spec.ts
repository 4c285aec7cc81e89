import { readFileSync } from "node:fs";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { firstStartAdmin } from "./support/admin";
import { collectBrowserErrors } from "./support/browser-errors";

// The run executes in the server's worker; replaying a cassette runs real guards (Python tests in the sandbox).
const RUN_TIMEOUT = 60_000;

/** Opens the Run dialog of a bundled example, keeps the replay generator, starts it, and lands on its page. */
async function startReplayRun(page: Page, workflowName: string): Promise<string> {
  await page.goto("/");
  const row = page.getByTestId("workflow-row").filter({ hasText: workflowName });
  await row.getByRole("button", { name: "Run", exact: true }).click();

  const dialog = page.getByRole("dialog", { name: `Run ${workflowName}` });
  await expect(dialog).toBeVisible();
  // Prefilled with the workflow's own specification; replay is the default when a cassette ships with it.
  await expect(dialog.getByLabel("Specification")).not.toHaveValue("");
  await expect(dialog.getByLabel("Replay bundled cassette")).toBeChecked();
  await expect(dialog.getByLabel("Configured model")).not.toBeChecked();
  await dialog.getByRole("button", { name: "Start run" }).click();

  await page.waitForURL(/\/runs\/[0-9a-f-]+$/);
  const runId = new URL(page.url()).pathname.split("/").at(-1) ?? "";
  await expect(page.getByTestId("run-header")).toContainText(workflowName);
  return runId;
}

function stepAttempts(page: Page, step: string) {
  return page.locator(`[data-testid="step-attempts"][data-step="${step}"]`).getByTestId("attempt");
}

test("a replayed TDD run succeeds: tests pass at once, the implementation on its second attempt", async ({ page }) => {
  test.setTimeout(RUN_TIMEOUT + 60_000);
  const browserErrors = collectBrowserErrors(page);

  const runId = await startReplayRun(page, "tdd-lru-cache");

  await expect(page.getByTestId("run-header").getByTestId("run-status")).toHaveText("succeeded", { timeout: RUN_TIMEOUT });

  await test.step("attempts grouped by step, with their verdicts and feedback", async () => {
    const writeTests = stepAttempts(page, "write_tests");
    await expect(writeTests).toHaveCount(1);
    await expect(writeTests.first().getByTestId("attempt-verdict")).toHaveText("passed");

    const implement = stepAttempts(page, "implement");
    await expect(implement).toHaveCount(2);
    await expect(implement.nth(0).getByTestId("attempt-verdict")).toHaveText("failed");
    await expect(implement.nth(0).getByTestId("attempt-feedback")).toContainText("test_evicts_least_recently_used");
    await expect(implement.nth(1).getByTestId("attempt-verdict")).toHaveText("passed");
  });

  await test.step("the code opens with line numbers; the result and the ledger are shown", async () => {
    const lastAttempt = stepAttempts(page, "implement").nth(1);
    await lastAttempt.getByText(/^Code \(/).click();
    await expect(lastAttempt.getByTestId("code-block")).toContainText("class LRUCache");
    await expect(lastAttempt.getByTestId("code-block")).toContainText("1");

    await expect(page.getByTestId("run-result")).toHaveAttribute("data-outcome", "success");
    await expect(page.getByTestId("ledger-row").first()).toContainText("run.started");
    await expect(page.getByTestId("ledger-row").last()).toContainText("run.finished");
    await expect(page.getByTestId("ledger-summary")).toContainText("guard.completed");
  });

  await test.step("the state machine marks the states the run went through and where it ended", async () => {
    const machine = page.getByTestId("state-machine");
    await expect(machine.locator('[data-testid="state-node"][data-state="done"]')).toHaveAttribute("data-current", "true");
    for (const state of ["writing_tests", "implementing", "done"]) await expect(machine.locator(`[data-testid="state-node"][data-state="${state}"]`)).toHaveAttribute("data-visited", "true");
    await expect(machine.locator(".react-flow__edge.transition-taken")).toHaveCount(2);
  });

  await test.step("the overview links the run to its page", async () => {
    await page.goto("/");
    await page.locator(`[data-testid="run-row"][data-run-id="${runId}"]`).getByTestId("run-link").click();
    await page.waitForURL(`**/runs/${runId}`);
    await expect(page.getByTestId("run-header").getByTestId("run-status")).toHaveText("succeeded");
  });

  expect(browserErrors).toEqual([]);
});

test("a replayed run whose code shells out waits on a person with the security guard's feedback", async ({ page }) => {
  test.setTimeout(RUN_TIMEOUT + 60_000);
  const browserErrors = collectBrowserErrors(page);

  await startReplayRun(page, "sandbox-escalation");

  // Waiting on a person holds no worker: the run is suspended until a decision or its deadline.
  await expect(page.getByTestId("run-header").getByTestId("run-status")).toHaveText("suspended", { timeout: RUN_TIMEOUT });
  const escalation = page.getByTestId("escalation");
  await expect(escalation).toHaveCount(1);
  await expect(escalation).toHaveAttribute("data-status", "pending");
  await expect(escalation.getByTestId("escalation-feedback")).toContainText("os.system");
  await expect(page.getByTestId("attempt").filter({ has: page.getByTestId("attempt-verdict").getByText("FATAL", { exact: true }) })).toHaveCount(1);

  expect(browserErrors).toEqual([]);
});

test("the other two examples keep their promises from the dashboard: prime-validator exhausts its retries, agent-loop succeeds", async ({ page }) => {
  test.setTimeout(2 * RUN_TIMEOUT + 60_000);
  const browserErrors = collectBrowserErrors(page);

  await startReplayRun(page, "prime-validator");
  await expect(page.getByTestId("run-header").getByTestId("run-status")).toHaveText("failed", { timeout: RUN_TIMEOUT });
  await expect(page.getByTestId("run-result")).toHaveAttribute("data-outcome", "failed");
  await expect(page.getByTestId("run-result")).toContainText("retry budget exhausted");
  await expect(page.getByTestId("attempt")).toHaveCount(3);

  await startReplayRun(page, "agent-loop");
  await expect(page.getByTestId("run-header").getByTestId("run-status")).toHaveText("succeeded", { timeout: RUN_TIMEOUT });
  await expect(page.getByTestId("run-result")).toHaveAttribute("data-outcome", "success");

  expect(browserErrors).toEqual([]);
});

test("the Run dialog shows an API error inline, naming the field", async ({ page }) => {
  await page.goto("/");
  const row = page.getByTestId("workflow-row").filter({ hasText: "tdd-lru-cache" });
  await row.getByRole("button", { name: "Run", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Run tdd-lru-cache" });

  await dialog.getByLabel("Specification").fill("   ");
  await dialog.getByRole("button", { name: "Start run" }).click();

  await expect(dialog.getByRole("alert")).toContainText("specification: must not be empty");
  await expect(dialog.getByLabel("Specification")).toHaveAttribute("aria-invalid", "true");
  expect(page.url()).not.toContain("/runs/");

  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
});

test("an unknown run shows the run-not-found page, without a stack trace", async ({ page }) => {
  const response = await page.goto("/runs/no-such-run");

  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Run not found" })).toBeVisible();
  await expect(page.locator("body")).not.toContainText(/\bat .+:\d+:\d+|Error:/);
});

type TrpcResult<T> = { result: { data: { json: T } } };

/** Starts a replayed run of a bundled example over the API, with its bundled cassette or the one given, and returns its id. */
async function startRunOverApi(request: APIRequestContext, workflowName: string, cassette?: unknown): Promise<string> {
  const workflow = await request.get(`/api/trpc/workflow.get?input=${encodeURIComponent(JSON.stringify({ json: { name: workflowName } }))}`);
  const workflowId = ((await workflow.json()) as TrpcResult<{ id: string }>).result.data.json.id;
  const created = await request.post("/api/trpc/run.create", { data: { json: { workflowId, generator: "replay", ...(cassette ? { cassette: JSON.stringify(cassette) } : {}) } } });
  expect(created.ok()).toBe(true);
  return ((await created.json()) as TrpcResult<{ id: string }>).result.data.json.id;
}

/** The TDD example's cassette with its second implementation held back for `delayMs`: long enough to watch, and to cancel. */
function slowTddCassette(delayMs: number) {
  const cassette = JSON.parse(readFileSync("examples/tdd-lru-cache.cassette.json", "utf8")) as { steps: { implement: unknown[] } };
  const second = cassette.steps.implement[1];
  cassette.steps.implement[1] = { content: typeof second === "string" ? second : (second as { content: string }).content, delay_ms: delayMs };
  return cassette;
}

test("the run page says what is happening now, and a confirmed cancel says who cancelled it", async ({ page, request }) => {
  test.setTimeout(RUN_TIMEOUT + 60_000);
  const browserErrors = collectBrowserErrors(page);
  const runId = await startRunOverApi(request, "tdd-lru-cache", slowTddCassette(60_000));
  await page.goto(`/runs/${runId}`);

  await test.step("while the second attempt waits for its answer: state, step, attempt 2 of 4 (three retries), and what it waits for", async () => {
    const now = page.getByTestId("run-now");
    await expect(now).toHaveAttribute("data-tone", "active", { timeout: RUN_TIMEOUT });
    await expect(page.getByTestId("run-now-sentence")).toHaveText("Running — in state implementing, step implement, attempt 2 of 4: waiting for the recorded answer (replay)", { timeout: RUN_TIMEOUT });
    // Lease and epoch are internals: folded away below, not above the fold.
    await expect(page.getByTestId("lifecycle-details")).not.toHaveAttribute("open");
    await expect(page.getByTestId("lifecycle-epoch")).toBeHidden();
    const machine = page.getByTestId("state-machine");
    await expect(machine.locator('[data-testid="state-node"][data-state="implementing"]')).toHaveAttribute("data-progress", "current");
    await expect(machine.locator('[data-testid="state-node"][data-state="writing_tests"]')).toHaveAttribute("data-progress", "visited");
    await expect(machine.locator('[data-testid="state-node"][data-state="done"]')).toHaveAttribute("data-progress", "unvisited");
    await expect(page.getByTestId("machine-legend")).toContainText("current state");
  });

  await test.step("Cancel asks first; keeping it running changes nothing", async () => {
    await page.getByRole("button", { name: "Cancel run" }).click();
    const dialog = page.getByRole("dialog", { name: "Cancel this run?" });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Keep running" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId("run-header").getByTestId("run-status")).toHaveText("running");
  });

  await test.step("confirmed, the run ends cancelled by the signed-in person, not 'failed at (run)'", async () => {
    await page.getByRole("button", { name: "Cancel run" }).click();
    await page.getByRole("dialog", { name: "Cancel this run?" }).getByRole("button", { name: "Yes, cancel the run" }).click();
    const admin = firstStartAdmin().email;
    await expect(page.getByTestId("run-header").getByTestId("run-status")).toHaveText("cancelled", { timeout: 30_000 });
    await expect(page.getByTestId("run-now-headline")).toContainText(`Cancelled by ${admin}`);
    await expect(page.getByTestId("run-now")).toHaveAttribute("data-tone", "cancelled");
    await expect(page.getByTestId("run-result")).toHaveAttribute("data-outcome", "cancelled");
    await expect(page.getByTestId("run-cancelled")).toContainText(`Cancelled by ${admin} at`);
    await expect(page.getByTestId("run-result")).not.toContainText("Failed at");
    await expect(page.getByRole("button", { name: "Cancel run" })).toHaveCount(0);
  });

  expect(browserErrors).toEqual([]);
});

test("the state machine draws every edge (a final state reached by a transition step's answer), and the timeline shows code, llm and transition steps", async ({ page, request }) => {
  test.setTimeout(RUN_TIMEOUT + 60_000);
  const browserErrors = collectBrowserErrors(page);
  const runId = await startRunOverApi(request, "agent-loop");
  await page.goto(`/runs/${runId}`);
  await expect(page.getByTestId("run-header").getByTestId("run-status")).toHaveText("succeeded", { timeout: RUN_TIMEOUT });
  await expect(page.getByTestId("run-now-sentence")).toHaveText(/^Succeeded in 2 attempts — ended in state shipping/);

  await test.step("the answer edge into the final state is drawn and taken; every state is told apart in words", async () => {
    const machine = page.getByTestId("state-machine");
    const intoShipping = machine.locator(".react-flow__edge.transition-transition_map.transition-taken");
    await expect(intoShipping).toHaveCount(1);
    await expect(intoShipping).toHaveAttribute("aria-label", /reflecting to shipping \(answer "ship"\), taken/);
    await expect(machine.locator(".react-flow__edge.transition-transition_map")).toHaveCount(3);
    await expect(machine.locator(".react-flow__edge.transition-transition_to")).toHaveCount(1);
    await expect(machine.locator('[data-testid="state-node"][data-state="shipping"]')).toHaveAttribute("data-progress", "current");
    await expect(machine.locator('[data-testid="state-node"][data-state="shipping"]').getByTestId("state-progress")).toHaveText("● current");
    await expect(machine.locator('[data-testid="state-node"][data-state="ideating"]').getByTestId("state-progress")).toHaveText("✓ visited");
  });

  await test.step("code, llm and transition steps appear in the timeline, in the order they ran, with the prompt an answer came from", async () => {
    await expect(page.getByTestId("step-attempts")).toHaveCount(5);
    const steps = await page.getByTestId("step-attempts").evaluateAll((groups) => groups.map((group) => group.getAttribute("data-step")));
    expect(steps).toEqual(["observe", "ideate", "implement", "test", "reflect"]);
    const observe = page.locator('[data-testid="step-attempts"][data-step="observe"]').getByTestId("step-run");
    await expect(observe).toHaveAttribute("data-kind", "code");
    await expect(observe.getByTestId("step-run-updates")).toContainText("has_context = true");
    const reflect = page.locator('[data-testid="step-attempts"][data-step="reflect"]').getByTestId("step-run");
    await expect(reflect.getByTestId("step-run-output")).toHaveText("ship");
    const ideate = page.locator('[data-testid="step-attempts"][data-step="ideate"]').getByTestId("step-run");
    await ideate.getByText(/^Prompt \(/).click();
    await expect(ideate.getByTestId("attempt-prompt")).toContainText("Propose one design for Implement a token-bucket rate limiter");
    // A step without a role or constraints of its own gets no empty section headers.
    await expect(ideate.getByTestId("attempt-prompt")).not.toContainText("# ROLE");
    const implement = page.locator('[data-testid="step-attempts"][data-step="implement"]').getByTestId("attempt");
    await implement.getByText(/^Prompt \(/).click();
    await expect(implement.getByTestId("attempt-prompt")).toContainText("# ROLE\nYou are a careful JavaScript engineer.");
  });

  expect(browserErrors).toEqual([]);
});

test("any two runs can be compared: pick one of the same workflow or paste an id; forking a replayed attempt warns", async ({ page, request }) => {
  test.setTimeout(2 * RUN_TIMEOUT + 60_000);
  const browserErrors = collectBrowserErrors(page);
  const [first, second, other] = [await startRunOverApi(request, "prime-validator"), await startRunOverApi(request, "prime-validator"), await startRunOverApi(request, "agent-loop")];
  const statusOf = async (id: string) => ((await (await request.get(`/api/trpc/run.get?input=${encodeURIComponent(JSON.stringify({ json: { id } }))}`)).json()) as TrpcResult<{ status: string }>).result.data.json.status;
  for (const id of [first, second, other]) await expect.poll(() => statusOf(id), { timeout: RUN_TIMEOUT }).toMatch(/^(succeeded|failed)$/);

  await test.step("another run of the same workflow, chosen from the list", async () => {
    await page.goto(`/runs/${first}`);
    await page.getByRole("button", { name: "Compare with…" }).click();
    const dialog = page.getByRole("dialog", { name: "Compare with another run" });
    await dialog.getByRole("radio", { name: new RegExp(second) }).check();
    await dialog.getByRole("button", { name: "Compare", exact: true }).click();
    await page.waitForURL(`**/runs/compare?a=${first}&b=${second}`);
    await expect(page.getByTestId("compared-run-a")).toContainText(`run ${first}`);
    await expect(page.getByTestId("compared-run-b")).toContainText(`run ${second}`);
    await expect(page.getByTestId("pair-same")).toHaveCount(3);
  });

  await test.step("a run of another workflow, by its pasted id", async () => {
    await page.goto(`/runs/${first}`);
    await page.getByRole("button", { name: "Compare with…" }).click();
    const dialog = page.getByRole("dialog", { name: "Compare with another run" });
    await dialog.getByLabel("Or paste a run id").fill(other);
    await dialog.getByRole("button", { name: "Compare", exact: true }).click();
    await page.waitForURL(`**/runs/compare?a=${first}&b=${other}`);
    await expect(page.getByTestId("compared-run-a").getByTestId("run-status")).toHaveText("failed");
    await expect(page.getByTestId("compared-run-b").getByTestId("run-status")).toHaveText("succeeded");
    await expect(page.getByTestId("compared-run-b")).toContainText("agent-loop");
  });

  await test.step("the fork form of a replayed attempt warns that the replay gives the same output", async () => {
    await page.goto(`/runs/${first}`);
    await page.getByTestId("attempt").first().getByRole("button", { name: "Fork", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Fork from implement attempt 1" });
    await expect(dialog.getByTestId("fork-replay-warning")).toContainText("same recorded output");
    await dialog.getByRole("button", { name: "Cancel" }).click();
  });

  expect(browserErrors).toEqual([]);
});
