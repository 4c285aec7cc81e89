import { expect, test as setup } from "@playwright/test";
import { ADMIN_STORAGE_STATE, firstStartAdmin, readmeFirstAdminEmail } from "./support/admin";

// The README's first start, as a new user follows it: `npm start` with no DUALSTATE_ADMIN_*
// set (playwright.config.ts), then sign in with the address and the password it printed. The
// other specs start signed in as this admin.
setup("the admin and password npm start printed, as the README says, sign in through the form", async ({ page }) => {
  const admin = firstStartAdmin();
  expect(admin.email).toBe(readmeFirstAdminEmail());

  await page.goto("/");
  await expect(page).toHaveURL(/\/sign-in$/);
  await page.getByLabel("Email").fill(admin.email);
  await page.getByLabel("Password").fill(admin.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("signed-in-user")).toContainText(admin.email);
  await page.context().storageState({ path: ADMIN_STORAGE_STATE });
});
