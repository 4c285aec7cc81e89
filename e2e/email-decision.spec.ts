import { expect, test } from "@playwright/test";
import { emailTo, linkIn } from "./support/emails";
import { pendingEscalationOf, RUN_TIMEOUT, startEscalatingRun, trpcQuery } from "./support/escalations";
import { signedInAs } from "./support/users";

test("a run escalates, the reviewer's email links to a confirmation page, approving there resumes the run; a prefetch decides nothing and the link works once", async ({ browser, request }) => {
  test.setTimeout(180_000);
  const reviewer = await signedInAs(browser, request, "reviewer");
  await reviewer.context.close();

  const specification = `Report disk usage (emailed approval ${Date.now()})`;
  const runId = await startEscalatingRun(request, specification);
  const escalation = await pendingEscalationOf(request, runId);

  const email = await emailTo(reviewer.email, `/escalations/${escalation.id}`, RUN_TIMEOUT);
  expect(email.subject).toContain("Fatal escalation: sandbox-escalation / write_script");
  expect(email.text).toContain("os.system forbidden");
  expect(email.text).toMatch(/^>\s+5 \| .*os\.system/m);
  const approve = linkIn(email, "Approve");

  // A mail scanner or link preview fetches the link: it gets the confirmation page and nothing is decided.
  const prefetch = await fetch(approve, { redirect: "manual" });
  expect(prefetch.status).toBe(200);
  expect(await prefetch.text()).toContain("Confirm approve");
  const stillPending = await trpcQuery<{ escalation: { status: string } }>(request, "escalation.get", { id: escalation.id });
  expect(stillPending.escalation.status).toBe("pending");

  // The reviewer clicks the link in their mail reader: no dashboard session in that browser.
  const mail = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await mail.newPage();
  await page.goto(approve);
  await expect(page.getByRole("heading", { name: "Approve this fatal escalation?" })).toBeVisible();
  await expect(page.getByTestId("link-feedback")).toContainText("os.system forbidden");
  const marked = page.getByLabel("The escalated artifact").locator('[data-offending="true"]');
  await expect(marked).toHaveAttribute("data-line", "5");
  await page.getByRole("button", { name: "Confirm approve" }).click();
  await expect(page.getByRole("heading", { name: "Escalation approved" })).toBeVisible();
  await expect(page.getByTestId("decision-outcome")).toContainText(`run ${runId} goes on`);

  await expect(async () => {
    const run = await trpcQuery<{ status: string }>(request, "run.get", { id: runId });
    expect(run.status).toBe("succeeded");
  }).toPass({ timeout: RUN_TIMEOUT });
  const decided = await trpcQuery<{ escalation: { status: string; decidedBy: string } }>(request, "escalation.get", { id: escalation.id });
  expect(decided.escalation).toMatchObject({ status: "approved", decidedBy: reviewer.email });

  // The same link again: refused, with the reason.
  await page.goto(approve);
  await expect(page.getByTestId("link-refusal")).toContainText("already used");
  // The reject link of the same email: someone (this reviewer) decided first.
  await page.goto(linkIn(email, "Reject"));
  await expect(page.getByTestId("link-refusal")).toContainText(`${reviewer.email} decided first`);
  await mail.close();
});

test("the outcome page shows only what the decision route said: a crafted address claims no decision and carries no text", async ({ page }) => {
  await page.goto(`/decided?${new URLSearchParams({ status: "approved", run: "run-forged", escalation: "esc-forged" })}`);
  await expect(page.getByRole("heading", { name: "Not decided" })).toBeVisible();
  await expect(page.getByTestId("decision-outcome")).toHaveText("Nothing was decided.");
  await page.goto(`/decided?${new URLSearchParams({ reason: "Your session expired: sign in again at evil.example" })}`);
  await expect(page.getByTestId("decision-outcome")).toHaveText("Nothing was decided.");
});
