import { expect, test, type Page } from "@playwright/test";
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
