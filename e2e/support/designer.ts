import { expect, type Page } from "@playwright/test";

/** A state on the designer canvas. */
export const stateNode = (page: Page, state: string) => page.locator(`[data-testid="state-node"][data-state="${state}"]`);

/** The designer's inspector panel. */
export const inspectorOf = (page: Page) => page.getByRole("complementary", { name: "Inspector" });

/** Selects a state on the canvas and waits until the inspector shows it. */
export async function selectState(page: Page, state: string) {
  await stateNode(page, state).click();
  await expect(inspectorOf(page).getByLabel("State name")).toHaveValue(state);
}

/** Drags from one state's lower handle to the other's upper one, in steps as a hand would. */
export async function connectStates(page: Page, from: string, to: string) {
  const centre = async (selector: string) => {
    const box = await page.locator(selector).boundingBox();
    if (!box) throw new Error(`${selector} is not on screen`);
    return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  };
  const start = await centre(`.react-flow__node[data-id="${from}"] .react-flow__handle.source`);
  // The top handle, not the whole-state drop target beside it.
  const end = await centre(`.react-flow__node[data-id="${to}"] .react-flow__handle.target:not([data-handleid="drop"])`);
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  await page.mouse.move(end.x, end.y, { steps: 12 });
  await page.mouse.up();
}
