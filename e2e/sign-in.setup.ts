import { expect, test as setup } from "@playwright/test";
import { ADMIN_STORAGE_STATE, E2E_ADMIN } from "./support/admin";

// Signs in once through the real form; the other specs start signed in as this admin.
setup("sign in as the first admin", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/sign-in$/);
  await page.getByLabel("Email").fill(E2E_ADMIN.email);
  await page.getByLabel("Password").fill(E2E_ADMIN.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("signed-in-user")).toContainText(E2E_ADMIN.email);
  await page.context().storageState({ path: ADMIN_STORAGE_STATE });
});
