import { defineConfig } from "@playwright/test";

// E2E_PORT lets several checkouts run their end-to-end tests on one machine at once.
const PORT = Number(process.env.E2E_PORT ?? 3100);
const BASE_URL = `http://127.0.0.1:${PORT}`;
const E2E_DATABASE_URL = "file:./data/e2e/dualstate-e2e.db";

export default defineConfig({
  testDir: "e2e",
  // The specs share one server and one database, so they run one at a time.
  workers: 1,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  reporter: process.env.CI ? [["list"], ["html", { open: "never" }]] : "list",
  use: { baseURL: BASE_URL, trace: "retain-on-failure" },
  projects: [
    {
      name: "chromium",
      use: {
        browserName: "chromium",
        // Debian's chromium: `npx playwright install` cannot download browsers here.
        launchOptions: {
          executablePath: "/usr/bin/chromium",
          args: [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--disable-quic",
          ],
        },
      },
    },
  ],
  webServer: {
    // The same start-up path a user takes (build if needed, migrate, next start), on a fresh database.
    command: "node e2e/reset-db.mjs && node bin/dualstate.mjs start --hostname 127.0.0.1",
    url: BASE_URL,
    env: {
      PORT: String(PORT),
      DATABASE_URL: E2E_DATABASE_URL,
      NEXT_TELEMETRY_DISABLED: "1",
    },
    // Includes a `next build` when no up-to-date build exists.
    timeout: 240_000,
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
  },
});
