import { expect, test, type Page } from "@playwright/test";
import { collectBrowserErrors } from "./support/browser-errors";
import { signedInAs } from "./support/users";

// The example's recorded model pauses a few seconds per call, so the run is watchable.
const RUN_TIMEOUT = 60_000;

const guide = (page: Page) => page.getByTestId("first-run-guide");

test("a new reviewer follows the overview's guide: runs the example in one click, watches it, reviews its escalation, and the guide is done", async ({ browser, request }) => {
  test.setTimeout(RUN_TIMEOUT + 90_000);
  const reviewer = await signedInAs(browser, request, "reviewer");
  const page = await reviewer.context.newPage();
  const browserErrors = collectBrowserErrors(page);

  await page.goto("/");
  // Earlier specs left runs behind: an overview with data shows the guide as a compact hint.
  await expect(guide(page)).toBeVisible();
  await expect(guide(page).getByTestId("guide-step-review")).toHaveAttribute("data-done", "false");

  await test.step("one click runs the bundled escalation example and opens its live page", async () => {
    await guide(page).getByTestId("guide-step-run").getByRole("button", { name: /^Run the example/ }).click();
    await page.waitForURL(/\/runs\/[0-9a-f-]+$/);
    await expect(page.getByTestId("run-header")).toContainText("sandbox-escalation");
    await expect(page.getByTestId("run-header").getByTestId("run-status")).toHaveText("suspended", { timeout: RUN_TIMEOUT });
  });
  const runId = new URL(page.url()).pathname.split("/").pop() ?? "";

  await test.step("back on the overview, the run is watched and its escalation is one click away", async () => {
    await page.goto("/");
    await expect(guide(page).getByTestId("guide-step-run")).toHaveAttribute("data-done", "true");
    await expect(guide(page).getByTestId("guide-step-watch")).toHaveAttribute("data-done", "true");
    await expect(guide(page).getByRole("link", { name: "Open the run" })).toHaveAttribute("href", `/runs/${runId}`);
    await expect(guide(page).getByTestId("guide-step-review")).toHaveAttribute("data-done", "false");
    await guide(page).getByRole("link", { name: "Review the escalation" }).click();
    await page.waitForURL(/\/escalations\/[0-9a-f-]+$/);
  });

  await test.step("approving it completes the path: the guide leaves the overview", async () => {
    await expect(page.getByTestId("fatal-feedback")).toContainText("os.system");
    await page.getByRole("button", { name: "Approve", exact: true }).click();
    await expect(page.getByTestId("decision-outcome")).toContainText(`Approved by ${reviewer.email}`);
    await page.goto("/");
    await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
    await expect(page.getByTestId("workflow-row").first()).toBeVisible();
    await expect(guide(page)).toHaveCount(0);
  });

  expect(browserErrors).toEqual([]);
  await reviewer.context.close();
});

test("a viewer sees the guide without the run button, and why", async ({ browser, request }) => {
  const viewer = await signedInAs(browser, request, "viewer");
  const page = await viewer.context.newPage();
  await page.goto("/");
  const runStep = guide(page).getByTestId("guide-step-run");
  await expect(runStep).toBeVisible();
  await expect(runStep.getByRole("button")).toHaveCount(0);
  await expect(runStep.getByTestId("guide-run-not-allowed")).toContainText("starting runs needs the reviewer or admin role");
  await viewer.context.close();
});

test("Hide this guide keeps it hidden in that browser", async ({ browser, request }) => {
  const reviewer = await signedInAs(browser, request, "reviewer");
  const page = await reviewer.context.newPage();
  await page.goto("/");
  await expect(guide(page)).toBeVisible();
  await guide(page).getByRole("button", { name: "Hide this guide" }).click();
  await expect(guide(page)).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId("workflow-row").first()).toBeVisible();
  await expect(guide(page)).toHaveCount(0);
  await reviewer.context.close();
});
