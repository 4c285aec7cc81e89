import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";

const tdd = readFileSync("examples/tdd-lru-cache.yaml", "utf8");

test("a workflow's page checks its document live: an invalid import marks the states concerned and cannot be saved; a valid edit saves a new version", async ({ page }) => {
  await page.goto("/");
  await page.getByTestId("workflow-row").filter({ hasText: "tdd-lru-cache" }).getByRole("link", { name: "tdd-lru-cache" }).click();
  await page.waitForURL("**/workflows/tdd-lru-cache");
  // Three states, and the node the "*" (from any state) transition starts at.
  await expect(page.getByTestId("state-machine").getByTestId("state-node")).toHaveCount(4);
  await expect(page.getByTestId("state-machine").locator('[data-state="any state"]')).toHaveCount(1);
  await expect(page.getByTestId("problems")).toHaveText("Valid.");

  await test.step("Import YAML: a machine where implementing never reaches done", async () => {
    const chooser = page.waitForEvent("filechooser");
    await page.getByRole("button", { name: "Import YAML" }).click();
    await (await chooser).setFiles({ name: "broken.yaml", mimeType: "application/yaml", buffer: Buffer.from(tdd.replace(/\n\s*- \{ from: implementing, to: done[^\n]*/, "")) });
    // writing_tests and implementing have no path to done (problems); done is now unreachable, a warning.
    await expect(page.getByTestId("problem")).toHaveCount(2);
    await expect(page.getByTestId("warning")).toHaveCount(1);
    await expect(page.getByTestId("warning")).toContainText('state "done" is unreachable from the initial state "writing_tests"');
    // Problems are listed in file order; this one is about the state the edit cut off.
    await expect(page.getByTestId("problem").filter({ hasText: '"implementing" has no path' })).toHaveText('line 19:29 · workflow.state_machine.states[1]: state "implementing" has no path to a final state (done)');
    await expect(page.locator('[data-testid="state-node"][data-state="implementing"]')).toHaveAttribute("data-problem", "true");
    await expect(page.getByRole("button", { name: "Save" })).toBeDisabled();
  });

  await test.step("a valid edit is saved as version 2 and listed", async () => {
    await page.getByRole("tab", { name: "YAML" }).click();
    await page.getByLabel(/Workflow document/).fill(tdd.replace(`description: "`, `description: "Edited in the dashboard. `));
    await expect(page.getByTestId("problems")).toHaveText("Valid.");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Saved as version 2" })).toBeVisible();
    await expect(page.getByTestId("version-row")).toHaveCount(2);
  });

  await test.step("Export YAML downloads the document", async () => {
    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "Export YAML" }).click();
    expect((await download).suggestedFilename()).toBe("tdd-lru-cache.yaml");
  });
});
