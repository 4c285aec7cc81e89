import { readFileSync } from "node:fs";

/**
 * Everything the e2e server's `npm start` printed on stdout: playwright.config.ts copies it here
 * (with tee), and e2e/reset-db.mjs deletes the previous run's copy before the server starts.
 */
export const FIRST_START_OUTPUT = "data/e2e/first-start.log";

/** Where the setup project keeps the admin's signed-in browser state for every other spec. */
export const ADMIN_STORAGE_STATE = "test-results/.auth/admin.json";

export interface FirstAdmin {
  readonly email: string;
  readonly password: string;
}

/** The block server/services/users/first-admin-on-start.ts prints, read the way a person reads it. */
const CREATED_WITH_GENERATED_PASSWORD = /^Created the admin (\S+) with the generated password:\n\n {4}(\S+)$/m;

/**
 * The admin and the generated password that `npm start` printed on its first start. Call it in a
 * test, not at a spec's top level: spec files are loaded before the server starts.
 */
export function firstStartAdmin(): FirstAdmin {
  const output = readFileSync(FIRST_START_OUTPUT, "utf8");
  const match = CREATED_WITH_GENERATED_PASSWORD.exec(output);
  if (!match) throw new Error(`${FIRST_START_OUTPUT}: npm start printed no "Created the admin … with the generated password:" block`);
  return { email: match[1]!, password: match[2]! };
}

/** The first admin's address as the README's "Run it" section promises it. */
export function readmeFirstAdminEmail(): string {
  const readme = readFileSync("README.md", "utf8");
  const runIt = /^## Run it\n([\s\S]*?)^## /m.exec(readme)?.[1] ?? "";
  const email = /creates the first admin: `([^`]+)`/.exec(runIt)?.[1];
  if (!email) throw new Error('README.md: the "Run it" section no longer says "creates the first admin: `…`"');
  return email;
}
