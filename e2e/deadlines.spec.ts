import { execFileSync } from "node:child_process";
import { expect, test } from "@playwright/test";
import { emailTo } from "./support/emails";
import { pendingEscalationOf, RUN_TIMEOUT, startEscalatingRun } from "./support/escalations";
import { signedInAs } from "./support/users";

const E2E_DATABASE_URL = "file:./data/e2e/dualstate-e2e.db";

test("an unclaimed escalation past its backup time is handed to the backup group: its member is emailed, and the review page and queue say so with what the deadline will do", async ({ browser, page, request }) => {
  test.setTimeout(180_000);
  const backupReviewer = await signedInAs(browser, request, "reviewer");
  const marker = `backup-handoff-${Date.now()}`;
  const specification = `Report disk usage (${marker})`;
  const runId = await startEscalatingRun(request, specification);
  const escalation = await pendingEscalationOf(request, runId);

  // Routed to "security" with a backup after 1 h, raised (by a simulated clock) 2 h ago.
  const oncall = execFileSync(process.execPath, ["--import", "tsx", "e2e/support/seed-escalation-policy.ts", escalation.id, backupReviewer.email, "2"], { env: { ...process.env, DATABASE_URL: E2E_DATABASE_URL } }).toString().trim();

  await page.goto(`/escalations/${escalation.id}`);
  // The server's watchdog hands it off within a sweep; the page refreshes itself.
  await expect(page.getByTestId("escalation-offered-to")).toContainText(new RegExp(`Offered to ${oncall} \\(handed off from security at \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC: nobody claimed it in time\\)`), { timeout: 30_000 });
  await expect(page.getByTestId("escalation-deadline-action")).toHaveText("At the deadline: handed to leads for 4 h; at the deadline after that the run fails.");

  // (As a reviewer they also got the escalation's first email; this is the hand-off's.)
  const email = await emailTo(backupReviewer.email, `Handed to your group ${oncall}: nobody claimed or decided this escalation in time`, RUN_TIMEOUT);
  expect(email.subject.startsWith(`[Dualstate] Handed to ${oncall}: Fatal escalation: sandbox-escalation / write_script (`)).toBe(true);
  expect(email.text).toContain(`/escalations/${escalation.id}`);

  await page.goto(`/escalations?q=${marker}`);
  const row = page.getByRole("row").filter({ hasText: specification });
  await expect(row.getByTestId("escalation-reach")).toContainText(`Offered to ${oncall} (handed off from security`);
  await expect(row.getByTestId("escalation-reach")).toContainText("At the deadline: handed to leads for 4 h");
  await backupReviewer.context.close();
});
