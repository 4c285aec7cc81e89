import { execFileSync } from "node:child_process";
import { expect, test } from "@playwright/test";
import { collectBrowserErrors } from "./support/browser-errors";

// The database the server under test uses (playwright.config.ts).
const E2E_DATABASE_URL = "file:./data/e2e/dualstate-e2e.db";

interface Seeded {
  parentId: string;
  childId: string;
  calls: { person: string; workflow: string; external: string; answered: string; timedOut: string };
}

/** A run suspended on three waiting calls, its sub-run, turns, edges and watchdog traces, written into the server's database. */
function seedSuspendedRun(): Seeded {
  const out = execFileSync(process.execPath, ["--import", "tsx", "e2e/support/seed-run-waits.ts"], { env: { ...process.env, DATABASE_URL: E2E_DATABASE_URL }, encoding: "utf8" });
  return JSON.parse(out) as Seeded;
}

test("a run suspended on tool calls shows what it waits for, one row per turn, its sub-run, edges and the watchdog's actions", async ({ page }) => {
  const browserErrors = collectBrowserErrors(page);
  const seeded = seedSuspendedRun();
  await page.goto(`/runs/${seeded.parentId}`);
  await expect(page.getByTestId("run-header").getByTestId("run-status")).toHaveText("suspended");
  await expect(page.getByTestId("run-now-headline")).toHaveText("Waiting for 3 tool calls");

  await test.step("the waiting panel: each call with its kind, call id, question, sub-run, deadline and report command", async () => {
    const panel = page.getByTestId("waiting-panel");
    await expect(panel.getByRole("heading", { name: /Waiting for 3 tool calls/ })).toBeVisible();
    const calls = panel.getByTestId("waiting-call");
    await expect(calls).toHaveCount(3);
    await expect(calls.getByTestId("waiting-tool")).toHaveText(["ask_release_manager", "write_changelog", "deploy_check"]);
    await expect(calls.getByTestId("waiting-kind")).toHaveText(["person", "workflow", "external"]);

    const person = panel.locator(`[data-testid="waiting-call"][data-call-id="${seeded.calls.person}"]`);
    await expect(person.getByTestId("waiting-question")).toHaveText("May we freeze main on Friday?");
    await expect(person.getByTestId("waiting-call-id")).toHaveText(seeded.calls.person);
    await expect(person.getByRole("button", { name: "Copy call id" })).toBeVisible();
    await expect(person.getByTestId("waiting-since")).toContainText(/\b[56] minutes ago/);
    await expect(person.getByTestId("time-left")).toHaveText(/^2 d 23 h left$/);
    await expect(person.getByTestId("report-command")).toHaveCount(0);
    await expect(person.getByTestId("answer-question")).toHaveAttribute("href", `/escalations/questions/${seeded.calls.person}`);

    const workflow = panel.locator(`[data-testid="waiting-call"][data-call-id="${seeded.calls.workflow}"]`);
    await expect(workflow.getByTestId("waiting-sub-run")).toHaveAttribute("href", `/runs/${seeded.childId}`);

    const external = panel.locator(`[data-testid="waiting-call"][data-call-id="${seeded.calls.external}"]`);
    await expect(external.getByTestId("report-command")).toHaveText(`npx dualstate runs report ${seeded.parentId} ${seeded.calls.external} --result '{"healthy":false,"note":""}'`);
    await expect(external.getByRole("button", { name: "Copy command" })).toBeVisible();

    // The answered and the timed-out call are listed apart, folded.
    await panel.getByText("Answered, timed out or cancelled (2)").click();
    await expect(panel.getByTestId("earlier-call")).toHaveCount(2);
    await expect(panel.locator(`[data-testid="earlier-call"][data-call-id="${seeded.calls.answered}"]`)).toContainText("reported");
    await expect(panel.locator(`[data-testid="earlier-call"][data-call-id="${seeded.calls.answered}"]`)).toContainText("by ops@example.com");
    await expect(panel.locator(`[data-testid="earlier-call"][data-call-id="${seeded.calls.timedOut}"]`)).toContainText("timed out");
  });

  await test.step("the turns: exactly one row per turn, with its outcome and what it delivered or why not", async () => {
    const rows = page.getByTestId("turn-row");
    await expect(rows).toHaveCount(4);
    await expect(rows.getByTestId("turn-outcome")).toHaveText(["suspended", "lost", "deferred", "suspended"]);
    await expect(rows.getByTestId("turn-deliverable")).toHaveText([
      "waiting for lookup_owner (external), ping_pager (external)",
      "the lease of worker-a expired; the watchdog reclaimed the run",
      "database unavailable",
      "waiting for ask_release_manager (person), write_changelog (workflow), deploy_check (external)",
    ]);
  });

  await test.step("the sub-run, the edges and what the watchdog did", async () => {
    await expect(page.getByTestId("sub-run")).toHaveCount(1);
    await expect(page.locator(`[data-testid="sub-run"][data-run-id="${seeded.childId}"]`)).toContainText(`for call ${seeded.calls.workflow} (write_changelog)`);
    const edges = page.getByTestId("execution-edge");
    await expect(edges).toHaveCount(9);
    // The sub-run's join request and start message, sent from this run, link to it.
    await expect(page.locator('[data-testid="execution-edge"][data-direction="out"]')).toContainText(["join/request", "enqueue/request"]);
    await expect(page.locator('[data-testid="execution-edge"][data-primitive="report"]')).toContainText([`result reported by ops@example.com for call ${seeded.calls.answered}`, `timeout reported for call ${seeded.calls.timedOut}`]);
    await expect(page.getByTestId("watchdog-action")).toHaveCount(4);
    await expect(page.locator('[data-testid="watchdog-action"][data-action="note"]')).toContainText("lease of worker-a expired at epoch 2; reclaimed as epoch 3");
    await expect(page.locator('[data-testid="watchdog-action"][data-action="timed_out_call"]')).toContainText(seeded.calls.timedOut);
  });

  await test.step("the sub-run's page links back to its parent and the call that waits for it", async () => {
    await page.getByTestId("waiting-sub-run").click();
    await page.waitForURL(`**/runs/${seeded.childId}`);
    await expect(page.getByTestId("sub-run-of")).toContainText(`Sub-run of run ${seeded.parentId} (tdd-lru-cache), started for call ${seeded.calls.workflow}`);
    await expect(page.getByTestId("sub-run-of")).toContainText(`call ${seeded.calls.workflow}: write_changelog in step plan, waiting`);
    await expect(page.getByTestId("waiting-panel")).toHaveCount(0);
    await page.getByTestId("parent-run-link").click();
    await page.waitForURL(`**/runs/${seeded.parentId}`);
    await expect(page.getByTestId("waiting-call")).toHaveCount(3);
  });

  await test.step("the person's question opens its answer form in the review queue", async () => {
    await page.getByTestId("answer-question").click();
    await page.waitForURL(`**/escalations/questions/${seeded.calls.person}`);
    await expect(page.getByRole("heading", { name: "Question from ask_release_manager", level: 1 })).toBeVisible();
    await expect(page.getByTestId("question-text")).toHaveText("May we freeze main on Friday?");
    await page.goBack();
    await page.waitForURL(`**/runs/${seeded.parentId}`);
  });

  await test.step("the provenance page draws the calls and the sub-run they joined", async () => {
    await page.getByTestId("run-header").getByRole("link", { name: "Provenance" }).click();
    await page.waitForURL(`**/runs/${seeded.parentId}/provenance`);
    await expect(page.locator('[data-testid="provenance-node"][data-kind="call"]')).toHaveCount(5);
    await expect(page.locator('[data-testid="provenance-node"][data-kind="run"]')).toContainText(`Sub-run ${seeded.childId.slice(0, 8)}`);
    await expect(page.locator(".react-flow__edge.provenance-edge-join")).toHaveCount(1);
  });

  expect(browserErrors).toEqual([]);
});
