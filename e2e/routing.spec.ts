import { expect, test, type Page } from "@playwright/test";
import { firstStartAdmin } from "./support/admin";
import { collectBrowserErrors } from "./support/browser-errors";
import { pendingEscalationOf, startEscalatingRun } from "./support/escalations";
import { openAdminPage } from "./support/admin-menu";

/** Replaces the routing editor's text, as a person pasting a document would. */
async function replaceDocument(page: Page, text: string) {
  await page.getByTestId("yaml-editor").locator(".cm-content").click();
  await page.keyboard.press("Control+A");
  await page.keyboard.insertText(text);
}

const documentFor = (group: string) => `rules:
  - name: sandbox code
    match: { workflow: sandbox-escalation, guard: security }
    group: ${group}
    deadline: { hours: 6, on_deadline: reject }
default:
  group: null
`;

// Every spec shares the e2e database: the rule this spec saves would send the other specs'
// escalations to its group (whose only member is the admin). A version with no rules puts routing
// back, however far the test got.
test.afterEach(async ({ request }) => {
  const reset = await request.post("/api/trpc/routing.save", { data: { json: { source: "rules: []\n", comment: "e2e: the routing spec is done" } } });
  expect(reset.ok()).toBe(true);
});

test("an admin makes a reviewer group, writes a routing rule for it (a problem shown by line), dry-runs it over the last escalations, and saves it; new escalations follow it", async ({ page, request }) => {
  test.setTimeout(240_000);
  const browserErrors = collectBrowserErrors(page);
  const admin = firstStartAdmin();
  const group = `security-${Date.now()}`;
  const runId = await startEscalatingRun(request, "routing: before any rule");
  const before = await pendingEscalationOf(request, runId);

  await test.step("Admin → Groups: create the group and add the admin to it", async () => {
    await page.goto("/");
    await openAdminPage(page, "Groups");
    await expect(page.getByRole("heading", { name: "Reviewer groups" })).toBeVisible();
    const form = page.getByRole("form", { name: "New group" });
    await form.getByLabel("Group name").fill("two words");
    await form.getByRole("button", { name: "Create group" }).click();
    await expect(form.getByRole("alert")).toContainText('"two words" is not a group name');
    await form.getByLabel("Group name").fill(group);
    await form.getByRole("button", { name: "Create group" }).click();
    const card = page.getByRole("region", { name: `Group ${group}` });
    await expect(card).toBeVisible();
    await card.getByRole("form", { name: `Add a member to ${group}` }).getByLabel("Member email").fill(admin.email);
    await card.getByRole("button", { name: "Add member" }).click();
    await expect(card.getByTestId("group-member")).toContainText(admin.email);
  });

  await test.step("Admin → Routing: a group that does not exist is a problem on its line, and the draft cannot be saved", async () => {
    await openAdminPage(page, "Routing");
    await expect(page.getByRole("heading", { name: "Routing" })).toBeVisible();
    await expect(page.getByTestId("yaml-editor").locator(".cm-content")).toContainText("rules: []");
    await replaceDocument(page, documentFor("ghosts"));
    const problem = page.getByTestId("routing-problem");
    await expect(problem).toHaveText(/^line 4 rules\[0\]\.group: "ghosts" is not a reviewer group/);
    await expect(page.getByTestId("routing-verdict")).toHaveText("1 problem(s)");
    await expect(page.getByRole("button", { name: "Save as a new version" })).toBeDisabled();
    await problem.getByRole("button", { name: "line 4" }).click();
    await expect(page.getByTestId("yaml-editor").locator(".cm-activeLine")).toHaveText("    group: ghosts");
  });

  await test.step("the fixed draft validates; its dry run shows the earlier escalation would now go to the group", async () => {
    await replaceDocument(page, documentFor(group));
    await expect(page.getByTestId("routing-verdict")).toHaveText("valid");
    await page.getByLabel("Escalations").fill("20");
    await page.getByRole("button", { name: "Dry run" }).click();
    const row = page.getByTestId("dry-run-row").filter({ has: page.locator(`a[href="/escalations/${before.id}"]`) });
    await expect(row).toHaveAttribute("data-changed", "true");
    await expect(row).toContainText("sandbox code");
    await expect(row).toContainText(`${group} · 6 h, then rejected`);
  });

  await test.step("saved as version 1 with a comment; it is in force and listed", async () => {
    await page.getByLabel("Comment (optional)").fill("security reviews sandbox code");
    await page.getByRole("button", { name: "Save as a new version" }).click();
    await expect(page.getByText(/^Saved as version \d+$/)).toBeVisible();
    const version = page.getByTestId("routing-version").first();
    await expect(version).toContainText("in force");
    await expect(version).toContainText("security reviews sandbox code");
  });

  await test.step("a new escalation is routed to the group, and the queue's 'my groups' shows it", async () => {
    const after = await pendingEscalationOf(request, await startEscalatingRun(request, "routing: after the rule"));
    // The routing pass of the served app picks it up within seconds; the dry run shows where it went.
    await expect(async () => {
      await page.getByRole("button", { name: "Dry run" }).click();
      const row = page.getByTestId("dry-run-row").filter({ has: page.locator(`a[href="/escalations/${after.id}"]`) });
      await expect(row).toHaveAttribute("data-changed", "false", { timeout: 2_000 });
      await expect(row.getByRole("cell").nth(2)).toContainText("sandbox code (v", { timeout: 1_000 });
    }).toPass({ timeout: 30_000 });
    await page.goto("/escalations");
    await page.getByLabel("Offered to").selectOption("mine");
    await expect(page.locator(`a[href="/escalations/${after.id}"]`).first()).toBeVisible();
  });

  // The refused group name is a 400 answer, which the browser logs; nothing else may be.
  expect(browserErrors.filter((message) => !message.startsWith("Failed to load resource"))).toEqual([]);
});
