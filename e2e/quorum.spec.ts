import { execFileSync } from "node:child_process";
import { expect, test } from "@playwright/test";
import { pendingEscalationOf, RUN_TIMEOUT, startEscalatingRun } from "./support/escalations";
import { signedInAs } from "./support/users";

const E2E_DATABASE_URL = "file:./data/e2e/dualstate-e2e.db";

test("under a quorum of two, the run's starter cannot approve, one approval is a vote, the second decides and the run succeeds", async ({ browser, page, request }) => {
  test.setTimeout(180_000);
  // The signed-in admin starts the run through the API: they are its starter.
  const runId = await startEscalatingRun(request, "Report disk usage (quorum)");
  const escalation = await pendingEscalationOf(request, runId);
  execFileSync(process.execPath, ["--import", "tsx", "e2e/support/seed-quorum-policy.ts", escalation.id, "2", "true"], { env: { ...process.env, DATABASE_URL: E2E_DATABASE_URL } });

  // The starter sees where the votes stand and why they cannot approve; the button says no too.
  await page.goto(`/escalations/${escalation.id}`);
  await expect(page.getByTestId("quorum-summary")).toHaveText("0 of 2 approvals");
  await expect(page.getByTestId("quorum-refusal")).toHaveText("You cannot approve: you started this run, and its review policy needs the approval of someone else.");
  await expect(page.getByRole("button", { name: "Approve", exact: true })).toBeDisabled();
  // The API refuses it as clearly.
  const refused = await request.post("/api/trpc/escalation.decide", { data: { json: { escalationId: escalation.id, contentHash: escalation.contentHash, decision: "approve" } } });
  expect(refused.status()).toBe(409);
  expect(await refused.text()).toContain("you started this run");

  // A first reviewer's approval is a vote: the escalation stays pending.
  const first = await signedInAs(browser, request, "reviewer");
  const firstPage = await first.context.newPage();
  await firstPage.goto(`/escalations/${escalation.id}`);
  await expect(firstPage.getByTestId("quorum-summary")).toHaveText("0 of 2 approvals");
  await firstPage.getByRole("button", { name: "Approve", exact: true }).click();
  await expect(firstPage.getByTestId("vote-recorded")).toHaveText(`Your vote is recorded: 1 of 2 approvals (${first.email}).`);
  await expect(firstPage.getByTestId("quorum-summary")).toHaveText(`1 of 2 approvals (${first.email})`);
  await expect(firstPage.getByTestId("escalation-status")).toContainText("pending");
  await firstPage.reload();
  await expect(firstPage.getByTestId("quorum-refusal")).toHaveText("You cannot vote: you already voted (approved); each reviewer votes once.");
  await expect(firstPage.getByRole("button", { name: "Reject", exact: true })).toBeDisabled();

  // The queue shows the count too.
  await page.goto("/escalations");
  await page.getByLabel("Sort").selectOption("newest");
  const row = page.locator(`[data-testid="escalation-row"][data-run-id="${runId}"]`);
  await expect(row.getByTestId("quorum-summary")).toContainText(`1 of 2 approvals (${first.email})`);
  await expect(row.getByTestId("quorum-summary")).toContainText("you cannot approve: you started this run");
  // The queue's quick approve says the same and cannot be confirmed.
  await row.getByTestId("quorum-summary").click();
  await expect(row).toHaveAttribute("aria-selected", "true");
  await page.locator("body").press("a");
  await expect(page.getByTestId("decision-refusal")).toHaveText("You cannot approve: you started this run, and its review policy needs the approval of someone else.");
  await page.keyboard.press("Escape");

  // The second reviewer's approval decides, and the run goes on.
  const second = await signedInAs(browser, request, "reviewer");
  const secondPage = await second.context.newPage();
  await secondPage.goto(`/escalations/${escalation.id}`);
  await expect(secondPage.getByTestId("quorum-summary")).toHaveText(`1 of 2 approvals (${first.email})`);
  await secondPage.getByRole("button", { name: "Approve", exact: true }).click();
  await expect(secondPage.getByTestId("decision-outcome")).toContainText(`Approved by ${second.email} at `);
  await expect(secondPage.getByTestId("quorum-summary")).toHaveText(`2 of 2 approvals (${first.email}, ${second.email})`);
  await expect(secondPage.getByTestId("quorum-vote")).toHaveCount(2);
  await secondPage.getByRole("link", { name: "Watch the run" }).click();
  await expect(secondPage.getByTestId("run-header").getByTestId("run-status")).toHaveText("succeeded", { timeout: RUN_TIMEOUT });
  await first.context.close();
  await second.context.close();
});
