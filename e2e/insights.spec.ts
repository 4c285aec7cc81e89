import { execFileSync } from "node:child_process";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { formatPercent, formatWait } from "../components/insights/insights-format";
import { formatUsd } from "../server/usage/format-usage";
import { collectBrowserErrors } from "./support/browser-errors";
import { pendingEscalationOf, RUN_TIMEOUT, startEscalatingRun, trpcQuery } from "./support/escalations";
import { signedInAs } from "./support/users";

const E2E_DATABASE_URL = "file:./data/e2e/dualstate-e2e.db";

interface Figures {
  runs: { total: number; byStatus: Record<string, number>; buckets: { bucket: string; total: number }[] };
  escalationRate: number | null;
  escalations: { escalatedRuns: number; timeToDecision: { sample: number; p50Ms: number | null; p95Ms: number | null } };
  cost: { costUsd: number; promptTokens: number; completionTokens: number; workflows: { name: string; runs: number; costUsd: number }[] };
  guardFailures: { reasons: { guardId: string; reason: string; count: number }[] };
}

const figuresOf = (request: APIRequestContext, workflowId: string) => trpcQuery<Figures>(request, "insights.get", { range: "24h", workflowId });
const failuresOf = (figures: Figures, guardId: string) => figures.guardFailures.reasons.filter((reason) => reason.guardId === guardId).reduce((sum, reason) => sum + reason.count, 0);

async function startPrimeRun(request: APIRequestContext, workflowId: string): Promise<string> {
  const created = await request.post("/api/trpc/run.create", { data: { json: { workflowId, specification: "Check primes (metrics)", generator: "replay" } } });
  expect(created.status(), await created.text()).toBe(200);
  return ((await created.json()) as { result: { data: { json: { id: string } } } }).result.data.json.id;
}

async function chooseWindow(page: Page, workflow: string) {
  await page.getByRole("radio", { name: "24 hours" }).click();
  await page.getByRole("combobox", { name: /Workflow/ }).selectOption({ label: workflow });
  await expect(page.getByTestId("metrics-window")).toContainText(`${workflow}, runs created since`);
}

test("the Metrics page shows the runs, escalations, costs and guard failures of the last 24 hours, on a phone too", async ({ browser, page, request }) => {
  test.setTimeout(180_000);
  const browserErrors = collectBrowserErrors(page);
  const { id: primeId } = await trpcQuery<{ id: string }>(request, "workflow.get", { name: "prime-validator" });
  const { id: sandboxId } = await trpcQuery<{ id: string }>(request, "workflow.get", { name: "sandbox-escalation" });
  const primeBefore = await figuresOf(request, primeId);
  const sandboxBefore = await figuresOf(request, sandboxId);

  // A run whose three attempts fail the tests, and one that escalates and is approved.
  const primeRun = await startPrimeRun(request, primeId);
  const escalatingRun = await startEscalatingRun(request, "Report disk usage (metrics)");
  const escalation = await pendingEscalationOf(request, escalatingRun);
  await trpcQuery(request, "escalation.get", { id: escalation.id });
  const decided = await request.post("/api/trpc/escalation.decide", { data: { json: { escalationId: escalation.id, contentHash: escalation.contentHash, decision: "approve", comment: "fine for metrics" } } });
  expect(decided.status(), await decided.text()).toBe(200);
  await expect(async () => {
    expect((await figuresOf(request, primeId)).runs.byStatus.failed).toBe(primeBefore.runs.byStatus.failed! + 1);
    expect((await figuresOf(request, sandboxId)).runs.byStatus.succeeded).toBe(sandboxBefore.runs.byStatus.succeeded! + 1);
  }).toPass({ timeout: RUN_TIMEOUT });
  execFileSync(process.execPath, ["--import", "tsx", "e2e/support/seed-run-cost.ts", primeRun, "0.125", "1200", "300"], { env: { ...process.env, DATABASE_URL: E2E_DATABASE_URL } });

  // What the runs added, through the API.
  const prime = await figuresOf(request, primeId);
  const sandbox = await figuresOf(request, sandboxId);
  expect(prime.runs.total).toBe(primeBefore.runs.total + 1);
  expect(prime.cost.costUsd).toBeCloseTo(primeBefore.cost.costUsd + 0.125, 9);
  expect(prime.cost.promptTokens).toBe(primeBefore.cost.promptTokens + 1200);
  expect(failuresOf(prime, "g_prime")).toBe(failuresOf(primeBefore, "g_prime") + 3);
  expect(sandbox.escalations.escalatedRuns).toBe(sandboxBefore.escalations.escalatedRuns + 1);
  expect(sandbox.escalations.timeToDecision.sample).toBe(sandboxBefore.escalations.timeToDecision.sample + 1);

  // The same figures on the page.
  await page.goto("/");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Metrics" }).click();
  await page.waitForURL("**/insights");
  await expect(page.getByRole("heading", { name: "Metrics", level: 1 })).toBeVisible();
  await chooseWindow(page, "prime-validator");
  await expect(page).toHaveURL(/range=24h/);
  await expect(page.getByTestId("metric-runs")).toHaveText(String(prime.runs.total));
  await expect(page.getByTestId("metric-cost")).toHaveText(formatUsd(prime.cost.costUsd));
  const costRow = page.getByTestId("cost-per-workflow-figures").locator('tr[data-key="prime-validator"]');
  await expect(costRow.locator("td").nth(1)).toHaveText(String(prime.runs.total));
  await expect(costRow.locator("td").nth(2)).toHaveText(formatUsd(prime.cost.costUsd));
  const currentHour = prime.runs.buckets.at(-1)!;
  const runsChart = page.getByTestId("chart-runs-by-status");
  await runsChart.getByText("Show the figures").click();
  await expect(runsChart.getByTestId("runs-by-status-figures").locator(`tr[data-key="${currentHour.bucket}"] td`).nth(1)).toHaveText(String(currentHour.total));
  // Recharts drew the bars: one rectangle per status and non-empty hour.
  await expect(runsChart.locator(".recharts-bar-rectangle").first()).toBeVisible();
  const topPrimeReason = prime.guardFailures.reasons.find((reason) => reason.guardId === "g_prime")!;
  await expect(page.locator(`[data-testid="failure-reason"][data-guard="g_prime"]`).first()).toHaveAttribute("data-count", String(topPrimeReason.count));
  await expect(page.getByTestId("chart-failure-reasons")).toContainText(topPrimeReason.reason);

  await chooseWindow(page, "sandbox-escalation");
  await expect(page.getByTestId("metric-escalation-rate")).toHaveText(formatPercent(sandbox.escalationRate));
  await expect(page.getByTestId("metric-decision-p50")).toHaveText(formatWait(sandbox.escalations.timeToDecision.p50Ms));
  await expect(page.getByTestId("metric-decision-p95")).not.toHaveText("–");
  await expect(page.getByTestId("chart-escalation-rate").locator(".recharts-bar-rectangle").first()).toBeVisible();

  // A phone: everything fits the width, the charts included.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.getByTestId("metric-escalation-rate")).toHaveText(formatPercent(sandbox.escalationRate));
  await expect(page.getByTestId("chart-runs-by-status").locator(".recharts-bar-rectangle").first()).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  for (const id of ["chart-runs-by-status", "chart-escalation-rate", "chart-cost-per-workflow", "chart-failure-reasons"]) {
    const box = await page.getByTestId(id).boundingBox();
    expect(box, id).not.toBeNull();
    expect(box!.x, id).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width, id).toBeLessThanOrEqual(390);
  }
  expect(browserErrors).toEqual([]);

  // A viewer reads the same figures.
  const viewer = await signedInAs(browser, request, "viewer");
  const viewerPage = await viewer.context.newPage();
  await viewerPage.goto("/insights?range=24h");
  await viewerPage.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Metrics" }).waitFor();
  const all = await trpcQuery<Figures>(request, "insights.get", { range: "24h" });
  await expect(viewerPage.getByTestId("metric-runs")).toHaveText(String(all.runs.total));
  await viewer.context.close();
});
