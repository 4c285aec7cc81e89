import { expect, test } from "@playwright/test";
import { pendingEscalationOf, startEscalatingRun, trpcQuery } from "./support/escalations";
import { signedInAs } from "./support/users";

test("a reviewer reviews from the keyboard: help, claim, approve after confirming, the decision in place of the deadline, next pending", async ({ browser, request }) => {
  test.setTimeout(150_000);
  const first = await pendingEscalationOf(request, await startEscalatingRun(request, "Report disk usage (review keys 1)"));
  const second = await pendingEscalationOf(request, await startEscalatingRun(request, "Report disk usage (review keys 2)"));
  const reviewer = await signedInAs(browser, request, "reviewer");
  const page = await reviewer.context.newPage();

  // From the queue, approving fatal code nobody here has looked at is disabled, saying why.
  await page.goto("/escalations");
  await page.getByLabel("Sort").selectOption("newest");
  const firstRow = page.locator(`[data-testid="escalation-row"][data-escalation-id="${first.id}"]`);
  await expect(firstRow.getByTestId("unseen-code")).toHaveText("code not seen yet");
  await firstRow.locator("td").nth(2).click();
  await page.locator("body").press("a");
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByTestId("decision-refusal")).toContainText("Open the review page first: a fatal escalation is approved only by a reviewer who has seen its code");
  await expect(dialog.getByRole("button", { name: "Approve" })).toBeDisabled();
  await dialog.getByRole("button", { name: "Cancel" }).click();
  // The API refuses it too.
  const unseen = await reviewer.context.request.post("/api/trpc/escalation.decide", { data: { json: { escalationId: first.id, contentHash: first.contentHash, decision: "approve" } } });
  expect(unseen.status()).toBe(409);
  expect(await unseen.text()).toContain("Open the review page first");

  await page.goto(`/escalations/${first.id}`);
  await expect(page.getByTestId("fatal-feedback")).toContainText("os.system");
  await expect(page.getByTestId("decision-rail")).toHaveCSS("position", "sticky");

  // ? lists the shortcuts; Escape closes the list.
  await page.locator("body").press("?");
  const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(help.getByTestId("shortcut-list")).toContainText("Approve (asks to confirm)");
  await expect(help.getByTestId("shortcut-list")).toContainText("Next pending escalation");
  await page.keyboard.press("Escape");
  await expect(help).toHaveCount(0);

  // c claims it.
  await expect(page.getByTestId("claimed-by")).toHaveText("Claimed by nobody");
  await page.locator("body").press("c");
  await expect(page.getByTestId("claimed-by")).toHaveText("Claimed by you");

  // Keys typed into the comment are text, not shortcuts.
  await page.getByLabel("Comment").pressSequentially("a r");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page.getByLabel("Comment")).toHaveValue("a r");
  await page.getByLabel("Comment").fill("");
  // Out of the field (a click on the page's title), the keys are shortcuts again.
  await page.getByRole("heading", { level: 1 }).click();

  // e opens the editor with the cursor in it.
  await page.locator("body").press("e");
  await expect(page.getByLabel("Edited artifact")).toBeFocused();
  await page.getByLabel("Edited artifact").press("Escape");
  await page.getByRole("heading", { level: 1 }).click();

  // a asks first; Enter confirms.
  await page.locator("body").press("a");
  await expect(page.getByRole("dialog").getByRole("heading")).toContainText("Approve write_script");
  await page.getByRole("dialog").getByLabel("Comment (optional)").fill("the shell call is fine here");
  await page.getByRole("dialog").getByLabel("Comment (optional)").press("Enter");
  await expect(page.getByTestId("decision-outcome")).toContainText(`Approved by ${reviewer.email} at `);
  await expect(page.getByTestId("decided")).toContainText(`Approved by ${reviewer.email} at `);
  await expect(page.getByTestId("time-left")).toHaveCount(0);

  // n goes on to a pending escalation, another one.
  await page.locator("body").press("n");
  await page.waitForURL((url) => /\/escalations\/[0-9a-f-]+$/.test(url.pathname) && !url.pathname.endsWith(first.id));
  await expect(page.getByTestId("escalation-review")).toHaveAttribute("data-status", "pending");

  // Once seen, the second one can be approved from the queue; the queue shows both decisions.
  await page.goto(`/escalations/${second.id}`);
  await expect(page.getByTestId("fatal-feedback")).toContainText("os.system");
  await page.goto("/escalations");
  await page.getByLabel("Sort").selectOption("newest");
  const secondRow = page.locator(`[data-testid="escalation-row"][data-escalation-id="${second.id}"]`);
  await expect(secondRow.getByTestId("unseen-code")).toHaveCount(0);
  await secondRow.locator("td").nth(2).click();
  await page.locator("body").press("a");
  await expect(page.getByRole("dialog").getByTestId("decision-refusal")).toHaveCount(0);
  await page.getByRole("dialog").getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);

  await page.getByTestId("count-approved").click();
  for (const escalation of [first, second]) {
    const row = page.locator(`[data-testid="escalation-row"][data-escalation-id="${escalation.id}"]`);
    await expect(row.getByTestId("decided")).toContainText(`Approved by ${reviewer.email} at `);
    await expect(row.getByTestId("time-left")).toHaveCount(0);
  }
  const review = await trpcQuery<{ escalation: { comment: string | null } }>(request, "escalation.get", { id: first.id });
  expect(review.escalation.comment).toBe("the shell call is fine here");
  await reviewer.context.close();
});
