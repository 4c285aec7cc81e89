import { expect, test } from "@playwright/test";
import { RELIES_ON_A_DEFAULT } from "../server/workflows/fixtures/relies-on-a-default";
import { collectBrowserErrors } from "./support/browser-errors";

test("a document that relies on a default is valid with a warning: shown amber, apart from problems, marked in the editor, and saved with it", async ({ page }) => {
  const errors = collectBrowserErrors(page);
  const name = `warned-${Date.now()}`;
  const document = RELIES_ON_A_DEFAULT.text.replace(`name: ${RELIES_ON_A_DEFAULT.name}`, `name: ${name}`);
  await page.goto("/");
  await page.getByLabel("New workflow name").fill(name);
  await page.getByRole("button", { name: "New workflow" }).click();
  await page.waitForURL(`**/workflows/${name}?language=javascript`);

  await test.step("typed in the YAML editor: valid, with its warning in a list of its own", async () => {
    await page.getByRole("tab", { name: "YAML" }).click();
    await page.getByLabel(/Workflow document/).fill(document);
    await expect(page.getByTestId("verdict")).toHaveText(/^Valid, \d+ warnings?\.$/);
    await expect(page.getByTestId("problem")).toHaveCount(0);
    const warning = page.getByTestId("warning").filter({ hasText: RELIES_ON_A_DEFAULT.warning });
    await expect(warning).toHaveCount(1);
    await expect(warning).toContainText(/^warning\s+line \d+/);
    await expect(page.getByRole("list", { name: "Warnings" })).toBeVisible();
    await expect(page.getByRole("list", { name: "Problems" })).toHaveCount(0);
  });

  await test.step("the editor marks the warning's line as a warning, not an error", async () => {
    await expect(page.locator(".cm-lint-marker-warning").first()).toBeVisible();
    await expect(page.locator(".cm-lint-marker-error")).toHaveCount(0);
    await expect(page.locator(".cm-lintRange-warning").first()).toBeVisible();
    await expect(page.locator(".cm-lintRange-error")).toHaveCount(0);
  });

  await test.step("a warning's place jumps to its line in the editor", async () => {
    const warning = page.getByTestId("warning").filter({ hasText: RELIES_ON_A_DEFAULT.warning });
    const line = Number(/line (\d+)/.exec(await warning.innerText())?.[1]);
    await warning.getByRole("button").click();
    await expect(page.locator(".cm-activeLine")).toHaveText(document.split("\n")[line - 1]!.trim());
  });

  await test.step("it can be saved; the answer's warnings are shown beside the note", async () => {
    await expect(page.getByRole("button", { name: "Save" })).toBeEnabled();
    await page.getByRole("button", { name: "Save" }).click();
    const note = page.getByTestId("saved-note");
    await expect(note).toContainText(/Saved as version 1, with \d+ warnings?:/);
    await expect(note.getByTestId("saved-warning").filter({ hasText: RELIES_ON_A_DEFAULT.warning })).toHaveCount(1);
    await expect(note.getByTestId("saved-warning").first()).toHaveText(/^warning: /);
    await expect(page.getByTestId("version-row")).toHaveCount(1);
    await expect(page.getByTestId("unsaved-marker")).toHaveCount(0);
  });

  await test.step("the designer tab keeps the same verdict below the canvas", async () => {
    await page.getByRole("tab", { name: "Designer" }).click();
    await expect(page.getByTestId("state-node")).toHaveCount(2);
    await expect(page.locator('[data-testid="state-node"][data-problem]')).toHaveCount(0);
    await expect(page.getByTestId("verdict")).toHaveText(/^Valid, \d+ warnings?\.$/);
  });

  expect(errors).toEqual([]);
});
