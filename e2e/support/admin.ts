/** The admin the e2e server creates on its first start (playwright.config.ts sets the variables). */
export const E2E_ADMIN = { email: "admin@e2e.test", password: "e2e-admin-password" } as const;

/** Where the setup project keeps the admin's signed-in browser state for every other spec. */
export const ADMIN_STORAGE_STATE = "test-results/.auth/admin.json";
