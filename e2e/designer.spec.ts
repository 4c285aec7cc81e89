import { expect, test } from "@playwright/test";
import { connectStates, selectState, stateNode } from "./support/designer";

test("a workflow designed from nothing on the canvas is saved as version 1, and an invalid import marks its state", async ({ page }) => {
  const name = `designed-${Date.now()}`;
  await page.goto("/");
  await page.getByLabel("New workflow name").fill(name);
  await page.getByRole("button", { name: "New workflow" }).click();
  // A blank machine is in the language the form shows (JavaScript unless changed).
  await page.waitForURL(`**/workflows/${name}?language=javascript`);
  await expect(page.getByRole("tab", { name: "Designer" })).toHaveAttribute("aria-selected", "true");
  const inspector = page.getByRole("complementary", { name: "Inspector" });

  await test.step("add two states and name them", async () => {
    await page.getByRole("button", { name: "Add state" }).click();
    await page.getByRole("button", { name: "Add state" }).click();
    await expect(page.getByTestId("state-node")).toHaveCount(2);
    await selectState(page, "state_1");
    await inspector.getByLabel("State name").fill("drafting");
    await inspector.getByLabel("State name").press("Enter");
    await selectState(page, "state_2");
    await inspector.getByLabel("State name").fill("done");
    await inspector.getByLabel("State name").press("Enter");
    await expect(stateNode(page, "drafting")).toBeVisible();
    await expect(stateNode(page, "done")).toBeVisible();
  });

  await test.step("connect them by dragging, mark initial and final", async () => {
    await connectStates(page, "drafting", "done");
    await expect(page.locator(".react-flow__edge")).toHaveCount(1);
    await expect(page.locator(".react-flow__edge-text")).toHaveText("true");
    await selectState(page, "drafting");
    await inspector.getByLabel("Initial state").check();
    await selectState(page, "done");
    await inspector.getByLabel("Final state").check();
    await expect(stateNode(page, "done")).toContainText("(final)");
  });

  await test.step("give drafting a step: generator, model and a second guard with JSON options", async () => {
    await selectState(page, "drafting");
    await inspector.getByRole("button", { name: "Action pair", exact: true }).click();
    await inspector.getByLabel("Generator").selectOption("openai");
    await inspector.getByLabel("Model").fill("gpt-4o-mini");
    await inspector.getByRole("button", { name: "Add guard" }).click();
    await inspector.getByRole("button", { name: "Security", exact: true }).click();
    await expect(inspector.getByLabel("Guard 2 kind")).toHaveValue("security");
    // Every option stays editable as JSON, behind the fields the palette's entry lists.
    await inspector.getByTestId("guard").nth(1).getByText("All options as JSON").click();
    await inspector.getByLabel("Guard 2 options (JSON)").fill('{"allow_modules": [');
    await expect(inspector.getByRole("alert")).toContainText("Not JSON");
    await inspector.getByLabel("Guard 2 options (JSON)").fill('{"allow_modules": ["math"]}');
    await expect(inspector.getByRole("alert")).toHaveCount(0);
    await expect(page.getByTestId("problems")).toHaveText("Valid.");
  });

  await test.step("undo and redo the last change", async () => {
    await page.getByRole("button", { name: "Undo" }).click();
    await expect(inspector.getByLabel("Guard 2 options (JSON)")).toHaveValue("{}");
    await page.getByRole("button", { name: "Redo" }).click();
    await expect(inspector.getByLabel("Guard 2 options (JSON)")).toHaveValue(/"math"/);
    // The shortcuts work outside form fields (inside one, the field's own undo applies).
    await page.getByRole("heading", { name }).click();
    await page.keyboard.press("Control+Z");
    await expect(inspector.getByLabel("Guard 2 options (JSON)")).toHaveValue("{}");
    await page.keyboard.press("Control+Shift+Z");
    await expect(inspector.getByLabel("Guard 2 options (JSON)")).toHaveValue(/"math"/);
  });

  await test.step("the YAML tab shows the same document", async () => {
    await page.getByRole("tab", { name: "YAML" }).click();
    // The YAML editor (CodeMirror) is a labelled text box; its lines are its text.
    const yaml = page.getByLabel(/Workflow document/);
    await expect(yaml).toContainText("states: [ drafting, done ]");
    await expect(yaml).toContainText("generator: { kind: openai, model: gpt-4o-mini }");
    await expect(yaml).toContainText("kind: security, allow_modules: [ math ]");
    await page.getByRole("tab", { name: "Designer" }).click();
  });

  await test.step("Save stores version 1", async () => {
    await expect(page.getByTestId("problems")).toHaveText("Valid.");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Saved as version 1" })).toBeVisible();
    await expect(page.getByTestId("version-row")).toHaveCount(1);
  });

  await test.step("a third state is deleted with the Delete button, a fourth with the Delete key", async () => {
    await page.getByRole("button", { name: "Add state" }).click();
    await expect(page.getByTestId("state-node")).toHaveCount(3);
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    await expect(page.getByTestId("state-node")).toHaveCount(2);
    await page.getByRole("button", { name: "Add state" }).click();
    await selectState(page, "state_1");
    await page.keyboard.press("Delete");
    await expect(page.getByTestId("state-node")).toHaveCount(2);
    await expect(stateNode(page, "state_1")).toHaveCount(0);
  });

  await test.step("an invalid import marks the state concerned on the canvas", async () => {
    const broken = [
      "workflow:",
      `  name: ${name}`,
      "  state_machine:",
      "    states: [drafting, done]",
      "    initial_state: drafting",
      "    final_states: [done]",
      "  steps:",
      "    - { name: draft, type: action_pair, in_state: drafting, guard_id: g_draft, prompt: Write it, guards: [ { kind: syntax } ] }",
      "",
    ].join("\n");
    const chooser = page.waitForEvent("filechooser");
    await page.getByRole("button", { name: "Import YAML" }).click();
    await (await chooser).setFiles({ name: "broken.yaml", mimeType: "application/yaml", buffer: Buffer.from(broken) });
    await expect(page.getByTestId("problem").filter({ hasText: 'state "drafting" has no path to a final state' })).toHaveCount(1);
    await expect(stateNode(page, "drafting")).toHaveAttribute("data-problem", "true");
    await expect(page.getByRole("button", { name: "Save" })).toBeDisabled();
  });
});

test("a new workflow started from a bundled example opens on a copy under the new name, stored by Save as its version 1", async ({ page }) => {
  const name = `from-example-${Date.now()}`;
  await page.goto("/");
  await page.getByLabel("New workflow name").fill(name);
  await page.getByLabel("Start from").selectOption("tdd-lru-cache");
  await page.getByRole("button", { name: "New workflow" }).click();
  await page.waitForURL(`**/workflows/${name}?from=tdd-lru-cache`);
  await expect(page.getByTestId("state-node")).toHaveCount(4);
  await expect(stateNode(page, "implementing")).toBeVisible();
  await expect(page.getByTestId("problems")).toHaveText("Valid.");
  await page.getByRole("tab", { name: "YAML" }).click();
  const yaml = page.getByLabel(/Workflow document/);
  await expect(yaml.locator(".cm-line").first()).toHaveText("# Started from the example tdd-lru-cache.yaml.");
  await expect(yaml.locator(".cm-line").nth(1)).toHaveText(/^# Example: test-driven development/);
  await expect(yaml.locator(".cm-line").filter({ hasText: /^\s*name: / }).first()).toHaveText(`  name: ${name}`);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved as version 1" })).toBeVisible();
  // Saved under its own name: the example itself is untouched, and the copy is runnable.
  await expect(page.getByRole("button", { name: "Run", exact: true })).toBeEnabled();
});
