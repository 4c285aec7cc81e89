import { expect, test, type Page } from "@playwright/test";
import { firstStartAdmin } from "./support/admin";
import { pendingEscalationOf, RUN_TIMEOUT, startEscalatingRun } from "./support/escalations";

// The escalated script (examples/sandbox-escalation.cassette.json): line 1 `import os`,
// line 5 `    os.system('du -sh ' + path)`, line 8 `disk_usage('.')`.

/** Opens a comment on `line` (Shift+click on `through` for a range), optionally with a suggested change, and adds it. */
async function comment(page: Page, text: string, line: number, options: { through?: number; suggestion?: string } = {}) {
  const artifact = page.getByLabel("Escalated artifact");
  await artifact.getByRole("button", { name: `Review line ${line}`, exact: true }).click();
  if (options.through) await artifact.getByRole("button", { name: `Review line ${options.through}`, exact: true }).click({ modifiers: ["Shift"] });
  const form = page.getByTestId("comment-form");
  await form.getByLabel(/^Remark on /).fill(text);
  if (options.suggestion !== undefined) {
    await form.getByRole("button", { name: "Suggest a change" }).click();
    await form.getByLabel(/^Suggested change/).fill(options.suggestion);
  }
  await form.getByRole("button", { name: "Add comment" }).click();
  await expect(form).toHaveCount(0);
}

test("line comments with suggested changes survive a reload and become one edit-and-approve; the run goes on with the edited script", async ({ page, request }) => {
  test.setTimeout(150_000);
  const runId = await startEscalatingRun(request, "Report disk usage (suggestions)");
  const escalation = await pendingEscalationOf(request, runId);
  await page.goto(`/escalations/${escalation.id}`);
  await expect(page.getByTestId("fatal-feedback")).toContainText("os.system");

  await comment(page, "not needed once the shell call is gone", 1, { through: 3, suggestion: "" });
  const artifact = page.getByLabel("Escalated artifact");
  await comment(page, "no shell: the length will do", 5, { suggestion: "    return len(path)" });
  await comment(page, "print what it returns", 8, { suggestion: "print(disk_usage('.'))" });
  await comment(page, "good name", 4);
  const drafts = page.getByTestId("pending-comment");
  await expect(drafts).toHaveCount(4);
  await expect(drafts.filter({ hasText: "lines 1-3" })).toContainText("Suggested: delete these lines");

  // Drafts are kept in the browser: a reload keeps them, and a removed one stays removed.
  await page.reload();
  await expect(drafts).toHaveCount(4);
  await drafts.filter({ hasText: "good name" }).getByRole("button", { name: "Remove" }).click();
  await page.reload();
  await expect(drafts).toHaveCount(3);
  await expect(page.getByTestId("pending-comment-count")).toHaveText("3 line comments go with your decision, 3 suggest a change.");

  // A plain approval would drop the suggestions: only Approve with suggestions is offered.
  await expect(page.getByRole("button", { name: "Approve", exact: true })).toBeDisabled();
  await page.getByRole("button", { name: "Approve with suggestions (3)" }).click();
  await expect(page.getByTestId("decision-outcome")).toContainText(`Edited and approved by ${firstStartAdmin().email} at `);

  // Decided: the comments are shown on their lines, read-only, and the drafts are gone.
  await page.reload();
  const submitted = page.getByTestId("review-comment");
  await expect(submitted).toHaveCount(3);
  await expect(submitted.filter({ hasText: "line 5" })).toContainText("no shell: the length will do");
  await expect(submitted.filter({ hasText: "line 5" })).toContainText("Edited and approved");
  await expect(page.getByTestId("pending-comment")).toHaveCount(0);
  await expect(artifact.getByRole("button", { name: /^Review line/ })).toHaveCount(0);
  // Drafts left for a closed escalation (someone else decided first) are dropped, not shown.
  const draftsKey = `dualstate:review-comments:${escalation.id}:${escalation.contentHash}`;
  await page.evaluate((key) => window.localStorage.setItem(key, JSON.stringify([{ id: "late", line: 2, body: "too late" }])), draftsKey);
  await page.reload();
  await expect(submitted).toHaveCount(3);
  await expect.poll(() => page.evaluate((key) => window.localStorage.getItem(key), draftsKey)).toBeNull();
  await expect(page.getByText("too late")).toHaveCount(0);

  await page.goto(`/runs/${runId}`);
  await expect(page.getByTestId("run-header").getByTestId("run-status")).toHaveText("succeeded", { timeout: RUN_TIMEOUT });
  const edit = page.getByTestId("attempt").filter({ hasText: "(a reviewer's edit)" });
  await expect(edit).toHaveAttribute("data-verdict", "passed");
  await edit.getByText(/^Code \(/).click();
  const code = edit.getByTestId("code-block");
  await expect(code).toContainText("return len(path)");
  await expect(code).toContainText("print(disk_usage('.'))");
  await expect(code).not.toContainText("import os");
  await expect(code).not.toContainText("os.system");
});

test("request changes sends every line comment, with its line number and the quoted line, into the next attempt's prompt", async ({ page, request }) => {
  test.setTimeout(150_000);
  const runId = await startEscalatingRun(request, "Report disk usage (request changes)");
  const escalation = await pendingEscalationOf(request, runId);
  await page.goto(`/escalations/${escalation.id}`);
  await comment(page, "never call os.system", 5);
  await comment(page, "unused once the shell call is gone", 1);
  // A decision from the keyboard says the comments go with it too.
  await page.getByRole("heading", { level: 1 }).click();
  await page.locator("body").press("r");
  await expect(page.getByRole("dialog").getByTestId("decision-note")).toHaveText("Your 2 line comments go with this decision.");
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await page.getByLabel("Comment", { exact: true }).fill("Keep to the standard library.");
  await page.getByRole("button", { name: "Request changes (2)" }).click();
  await expect(page.getByTestId("decision-outcome")).toContainText(`Rejected with feedback by ${firstStartAdmin().email} at `);

  await page.goto(`/runs/${runId}`);
  await expect(page.getByTestId("run-header").getByTestId("run-status")).toHaveText("succeeded", { timeout: RUN_TIMEOUT });
  await expect(page.getByTestId("attempt")).toHaveCount(2);
  const retried = page.getByTestId("attempt").nth(1);
  await retried.getByText(/^Prompt \(/).click();
  const prompt = retried.getByTestId("attempt-prompt");
  await expect(prompt).toContainText("Keep to the standard library.");
  await expect(prompt).toContainText("line 1: unused once the shell call is gone\n  > import os\nline 5: never call os.system\n  >     os.system('du -sh ' + path)");
});
