import { expect, test } from "@playwright/test";
import { firstStartAdmin } from "./support/admin";
import { pendingEscalationOf, RUN_TIMEOUT, startEscalatingRun } from "./support/escalations";
import { signedInAs } from "./support/users";

type TrpcResult<T> = { result: { data: { json: T } } };

test("a reviewer sees a new escalation appear in the queue live, opens it from the keyboard, approves it, and the run succeeds", async ({ browser, request }) => {
  test.setTimeout(120_000);
  const reviewer = await signedInAs(browser, request, "reviewer");
  const bystander = await signedInAs(browser, request, "viewer");
  await bystander.context.close();
  const page = await reviewer.context.newPage();
  await page.goto("/");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Escalations" }).click();
  await expect(page.getByRole("heading", { name: "Escalations", level: 1 })).toBeVisible();
  await page.getByLabel("Sort").selectOption("newest");

  // The run starts after the queue is on screen: its escalation must arrive without a reload.
  const runId = await startEscalatingRun(request, "Report disk usage (approve)");
  const row = page.locator(`[data-testid="escalation-row"][data-run-id="${runId}"]`);
  await expect(row).toBeVisible({ timeout: RUN_TIMEOUT });
  await expect(row).toContainText("sandbox-escalation · write_script");
  await expect(row).toContainText("os.system forbidden");
  await expect(row.getByTestId("time-left")).toHaveText(/\d+ (d|h|min|s)\b.* left/);

  // Claiming shows who has it.
  await row.getByRole("button", { name: "Claim" }).click();
  await expect(row.getByTestId("claimed-by")).toHaveText("you");
  // Assignment hands it to another reviewer or admin; viewers are not offered.
  const assign = row.getByLabel("Assign");
  await expect(assign.locator("option", { hasText: bystander.email })).toHaveCount(0);
  await expect(assign.locator("option", { hasText: reviewer.email })).toHaveCount(1);
  const admin = firstStartAdmin();
  await assign.selectOption(admin.email);
  await expect(row.getByTestId("claimed-by")).toHaveText(admin.email);

  // Newest first, so the new escalation is the first row: j selects it, Enter opens it.
  await page.locator("body").press("j");
  await expect(page.getByTestId("escalation-row").first()).toHaveAttribute("aria-selected", "true");
  await page.locator("body").press("Enter");
  await page.waitForURL(/\/escalations\/[0-9a-f-]+$/);

  // Everything needed to decide, on one screen.
  await expect(page.getByTestId("fatal-feedback")).toContainText("Security: os.system forbidden (line 5)");
  const marked = page.getByLabel("Escalated artifact").locator('[data-offending="true"]');
  await expect(marked).toHaveAttribute("data-line", "5");
  await expect(marked).toContainText("os.system('du -sh ' + path)");
  await expect(page.getByTestId("prompt")).toContainText("Report disk usage (approve)");
  await expect(page.getByTestId("state-machine").locator('[data-testid="state-node"][data-state="scripting"]')).toHaveAttribute("data-current", "true");
  await expect(page.getByRole("link", { name: "Full provenance" })).toHaveAttribute("href", `/runs/${runId}/provenance`);

  await page.getByRole("button", { name: "Approve", exact: true }).click();
  await expect(page.getByTestId("decision-outcome")).toContainText(`Approved by ${reviewer.email} at `);
  await page.getByRole("link", { name: "Watch the run" }).click();
  await expect(page.getByTestId("run-header").getByTestId("run-status")).toHaveText("succeeded", { timeout: RUN_TIMEOUT });
  await reviewer.context.close();
});

test("a viewer finds no Approve button, and the API refuses the viewer's decision", async ({ browser, request }) => {
  const runId = await startEscalatingRun(request, "Report disk usage (viewer)");
  const escalation = await pendingEscalationOf(request, runId);
  const viewer = await signedInAs(browser, request, "viewer");
  const page = await viewer.context.newPage();
  await page.goto(`/escalations/${escalation.id}`);
  await expect(page.getByTestId("fatal-feedback")).toContainText("os.system");
  await expect(page.getByTestId("no-decision")).toContainText("needs the reviewer or admin role");
  await expect(page.getByRole("button", { name: "Approve" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Reject" })).toHaveCount(0);

  const refused = await viewer.context.request.post("/api/trpc/escalation.decide", { data: { json: { escalationId: escalation.id, contentHash: escalation.contentHash, decision: "approve" } } });
  expect(refused.status()).toBe(403);
  const pending = await request.get(`/api/trpc/escalation.get?input=${encodeURIComponent(JSON.stringify({ json: { id: escalation.id } }))}`);
  expect(((await pending.json()) as TrpcResult<{ escalation: { status: string } }>).result.data.json.escalation.status).toBe("pending");
  await viewer.context.close();
});

test("reject with feedback makes the step retry with the feedback in its prompt", async ({ page, request }) => {
  test.setTimeout(120_000);
  const runId = await startEscalatingRun(request, "Report disk usage (feedback)");
  const escalation = await pendingEscalationOf(request, runId);
  await page.goto(`/escalations/${escalation.id}`);
  const feedback = "Never shell out: read the sizes from stdin instead.";
  await page.getByLabel("Comment").fill(feedback);
  await page.getByRole("button", { name: "Reject with feedback" }).click();
  await expect(page.getByTestId("decision-outcome")).toContainText(`Rejected with feedback by ${firstStartAdmin().email} at `);

  await page.goto(`/runs/${runId}`);
  await expect(page.getByTestId("run-header").getByTestId("run-status")).toHaveText("succeeded", { timeout: RUN_TIMEOUT });
  await expect(page.getByTestId("attempt")).toHaveCount(2);
  // The timeline shows the reviewer's feedback on the attempt they sent back, and the prompt it went into.
  await expect(page.getByTestId("attempt").nth(0).getByTestId("attempt-review-comment")).toHaveText(feedback);
  const retried = page.getByTestId("attempt").nth(1);
  await retried.getByText(/^Prompt \(/).click();
  await expect(retried.getByTestId("attempt-prompt")).toContainText(feedback);
  // The second attempt's generation carries the reviewer's words in its prompt.
  const secondGeneration = page.getByTestId("ledger-row").filter({ hasText: "generator.completed" }).filter({ hasText: '"attempt":2' });
  await secondGeneration.locator("summary").click();
  await expect(secondGeneration).toContainText(feedback);
});
