import { expect, type APIRequestContext, type Browser, type BrowserContext } from "@playwright/test";

let counter = 0;

/**
 * Creates a user of `role` through the admin API (the request must be the signed-in admin's) and
 * returns a new browser context signed in as them, with their email and password.
 */
export async function signedInAs(browser: Browser, adminRequest: APIRequestContext, role: "viewer" | "reviewer" | "admin"): Promise<{ context: BrowserContext; email: string; password: string }> {
  const email = `${role}-${Date.now()}-${++counter}@e2e.test`;
  const password = `${role}-password-123`;
  const created = await adminRequest.post("/api/trpc/admin.createUser", { data: { json: { email, password, role } } });
  expect(created.status(), await created.text()).toBe(200);
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const signIn = await context.request.post("/api/auth/sign-in/email", { data: { email, password } });
  expect(signIn.status(), await signIn.text()).toBe(200);
  return { context, email, password };
}
