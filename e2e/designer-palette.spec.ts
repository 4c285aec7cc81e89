import { expect, test, type Page } from "@playwright/test";
import { inspectorOf, selectState, stateNode } from "./support/designer";

async function centreOf(page: Page, selector: string) {
  const box = await page.locator(selector).boundingBox();
  if (!box) throw new Error(`${selector} is not on screen`);
  return { x: box.x + box.width / 2, y: box.y + box.height / 2, box };
}

/** Drags from a state's lower handle and lets go at a point, in steps as a hand would. */
async function dragTransition(page: Page, from: string, to: { x: number; y: number }) {
  const start = await centreOf(page, `.react-flow__node[data-id="${from}"] .react-flow__handle.source`);
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  await page.mouse.move(to.x, to.y, { steps: 12 });
  await page.mouse.up();
}

test("the designer's palette adds steps and guards with their explanations, transitions connect without hitting the handle, and unsaved changes are marked, guarded and named by Run", async ({ page }) => {
  test.setTimeout(120_000);
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  const name = `palette-${Date.now()}`;
  const inspector = inspectorOf(page);
  await page.goto("/");
  await page.getByLabel("New workflow name").fill(name);
  await page.getByRole("button", { name: "New workflow" }).click();
  await page.waitForURL(`**/workflows/${name}?language=javascript`);

  await test.step("three states; the first gets its step from the palette right after its name is typed (no Enter)", async () => {
    for (let count = 1; count <= 3; count++) await page.getByRole("button", { name: "Add state" }).click();
    await expect(page.getByTestId("state-node")).toHaveCount(3);
    await selectState(page, "state_1");
    const palette = inspector.getByRole("group", { name: "Step types" });
    await expect(palette.getByRole("button", { name: "Action pair", exact: true })).toHaveAccessibleDescription(/guards check it/);
    await inspector.getByLabel("State name").fill("drafting");
    // Leaving the name field renames the state; the same click must still add the step.
    await palette.getByRole("button", { name: "Action pair", exact: true }).click();
    await expect(stateNode(page, "drafting")).toBeVisible();
    await expect(inspector.getByLabel("Step name")).toHaveValue("drafting");
    await expect(inspector.getByLabel("Guard 1 kind")).toHaveValue("syntax");
    await expect(inspector.getByLabel("Step type")).toHaveValue("action_pair");
  });

  await test.step("the palette is searched by what an entry does", async () => {
    await selectState(page, "state_2");
    await inspector.getByLabel("Search step types").fill("sandbox");
    await expect(inspector.getByTestId("palette-entry")).toHaveCount(1);
    await expect(inspector.getByTestId("palette-entry")).toHaveAttribute("data-name", "code");
    await inspector.getByLabel("Search step types").fill("nothing of the sort");
    await expect(inspector.getByText("Nothing matches")).toBeVisible();
    await inspector.getByLabel("State name").fill("reviewing");
    await inspector.getByLabel("State name").press("Enter");
    await selectState(page, "state_3");
    await inspector.getByLabel("State name").fill("done");
    await inspector.getByLabel("State name").press("Enter");
    await inspector.getByLabel("Final state").check();
    await selectState(page, "drafting");
    await inspector.getByLabel("Initial state").check();
  });

  await test.step("a transition connects when dropped near the handle, and when dropped anywhere on the state", async () => {
    const handle = await centreOf(page, '.react-flow__node[data-id="reviewing"] .react-flow__handle.target:not([data-handleid="drop"])');
    // Beside and above the target handle, outside the state: within the connection radius, not on the handle.
    await dragTransition(page, "drafting", { x: handle.x + 18, y: handle.y - 18 });
    await expect(page.locator(".react-flow__edge")).toHaveCount(1);
    const done = await centreOf(page, '.react-flow__node[data-id="done"]');
    // The lower right of the state, far from its handle at the top.
    await dragTransition(page, "reviewing", { x: done.box.x + done.box.width - 12, y: done.box.y + done.box.height - 10 });
    await expect(page.locator(".react-flow__edge")).toHaveCount(2);
    await expect(page.locator(".react-flow__edge-text")).toHaveText(["g_drafting", "true"]);
  });

  await test.step("a guard from the palette shows its explanation and a field per option", async () => {
    await selectState(page, "drafting");
    await inspector.getByRole("button", { name: "Add guard" }).click();
    await inspector.getByLabel("Search guard kinds").fill("rubric");
    await inspector.getByRole("button", { name: "LLM judge", exact: true }).click();
    await expect(inspector.getByLabel("Guard 2 kind")).toHaveValue("llm_judge");
    await expect(inspector.getByTestId("guard").nth(1)).toContainText("A second model grades the artifact against your rubric");
    await expect(page.getByTestId("problem").filter({ hasText: "guards[1].rubric" })).toHaveCount(1);
    await inspector.getByLabel("Guard 2 rubric (required)").fill("The code is short and commented");
    await inspector.getByLabel("Guard 2 json_mode").check();
    await expect(page.getByTestId("problems")).toHaveText("Valid.");
    await page.getByRole("tab", { name: "YAML" }).click();
    // The YAML editor (CodeMirror) is a labelled text box; its lines are its text.
    await expect(page.getByLabel(/Workflow document/)).toContainText("kind: llm_judge, rubric: The code is short and commented, json_mode: true");
    await page.getByRole("tab", { name: "Designer" }).click();
  });

  await test.step("unsaved changes are marked until Save", async () => {
    await expect(page.getByTestId("unsaved-marker")).toHaveText("Unsaved changes");
    await expect(page).toHaveTitle(/^\* /);
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Saved as version 1" })).toBeVisible();
    await expect(page.getByTestId("unsaved-marker")).toHaveCount(0);
    await expect(page).not.toHaveTitle(/^\* /);
  });

  await test.step("Run says which version it uses; with unsaved changes it offers the saved version or Save and run", async () => {
    await page.getByRole("button", { name: "Run", exact: true }).click();
    await expect(page.getByRole("dialog").getByTestId("run-version")).toHaveText("Runs version 1, the latest saved version.");
    await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();

    await selectState(page, "drafting");
    await inspector.getByLabel("Max retries").fill("2");
    await expect(page.getByTestId("unsaved-marker")).toBeVisible();
    await page.getByRole("button", { name: "Run", exact: true }).click();
    const choice = page.getByRole("dialog", { name: "Run with unsaved changes?" });
    await expect(choice).toContainText("Version 1 is the latest saved one; your changes since then are not in it.");
    await choice.getByRole("button", { name: "Run saved version 1" }).click();
    const saved = page.getByRole("dialog", { name: /^Run palette-/ });
    await expect(saved.getByTestId("run-version")).toContainText("Runs version 1, the latest saved version. Your unsaved changes are not in it");
    await saved.getByRole("button", { name: "Cancel" }).click();
    await expect(page.getByTestId("unsaved-marker")).toBeVisible();

    await page.getByRole("button", { name: "Run", exact: true }).click();
    await expect(page.getByTestId("problems")).toHaveText("Valid.");
    await page.getByRole("dialog", { name: "Run with unsaved changes?" }).getByRole("button", { name: "Save and run" }).click();
    const fresh = page.getByRole("dialog", { name: /^Run palette-/ });
    await expect(fresh.getByTestId("run-version")).toContainText("Runs version 2");
    await expect(page.getByTestId("unsaved-marker")).toHaveCount(0);
    await fresh.getByRole("button", { name: "Cancel" }).click();
    await expect(page.getByTestId("version-row")).toHaveCount(2);
  });

  await test.step("leaving with unsaved changes asks first", async () => {
    await selectState(page, "drafting");
    await inspector.getByLabel("Max retries").fill("4");
    await expect(page.getByTestId("unsaved-marker")).toBeVisible();
    const questions: string[] = [];
    page.once("dialog", (dialog) => {
      questions.push(dialog.message());
      void dialog.dismiss();
    });
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Runs" }).click();
    await expect.poll(() => questions).toEqual(["This workflow has unsaved changes. Leave without saving them?"]);
    await expect(page).toHaveURL(new RegExp(`/workflows/${name}(\\?|$)`));
    await expect(inspector.getByLabel("Max retries")).toHaveValue("4");
    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Runs" }).click();
    await page.waitForURL(/\/runs$/);
  });

  expect(errors).toEqual([]);
});
