import { defineConfig } from "@playwright/test";
import { ADMIN_STORAGE_STATE, FIRST_START_OUTPUT } from "./e2e/support/admin";

// E2E_PORT lets several checkouts run their end-to-end tests on one machine at once.
const PORT = Number(process.env.E2E_PORT ?? 3100);
const BASE_URL = `http://127.0.0.1:${PORT}`;
const FAKE_MODEL_PORT = PORT + 1;
// The SMTP server escalation emails go to, and the HTTP port where specs read what it received.
const SMTP_SINK_PORT = PORT + 2;
const SMTP_SINK_HTTP_PORT = PORT + 3;
// The Slack-shaped server Slack messages go to, and the port where specs read them and click buttons.
const SLACK_PORT = PORT + 4;
const SLACK_CONTROL_PORT = PORT + 5;
const E2E_SLACK_BOT_TOKEN = "xoxb-e2e-0000-slacktoken";
const E2E_SLACK_SIGNING_SECRET = "e2e-slack-signing-secret-0123456789";
const E2E_DATABASE_URL = "file:./data/e2e/dualstate-e2e.db";
const E2E_METRICS_TOKEN = "e2e-metrics-scrape-token-0123456789";

// Debian's chromium: `npx playwright install` cannot download browsers here.
const CHROMIUM_LAUNCH = {
  executablePath: "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"],
};

export default defineConfig({
  testDir: "e2e",
  // The specs share one server and one database, so they run one at a time.
  workers: 1,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  reporter: process.env.CI ? [["list"], ["html", { open: "never" }]] : "list",
  use: { baseURL: BASE_URL, trace: "retain-on-failure" },
  // Roomy: on a loaded machine a server render or a sign-in takes several seconds, and a flaky
  // landing costs more than a slow failure.
  expect: { timeout: 15_000 },
  timeout: 120_000,
  projects: [
    // Signs in once, through the form, as the admin the server created and printed on its first start.
    { name: "sign-in", testMatch: /sign-in\.setup\.ts/, use: { browserName: "chromium", launchOptions: CHROMIUM_LAUNCH } },
    // The first-start journey needs the database as a first start leaves it (no runs yet), so it
    // runs before every other spec. Every spec starts signed in as that admin (other roles:
    // e2e/support/users.ts).
    { name: "first-start", dependencies: ["sign-in"], testMatch: /home\.spec\.ts/, use: { browserName: "chromium", launchOptions: CHROMIUM_LAUNCH, storageState: ADMIN_STORAGE_STATE } },
    { name: "chromium", dependencies: ["first-start"], testIgnore: /home\.spec\.ts/, use: { browserName: "chromium", launchOptions: CHROMIUM_LAUNCH, storageState: ADMIN_STORAGE_STATE } },
  ],
  webServer: [
    {
      // The configured model of the dashboard under test: a real OpenAI-compatible HTTP server.
      command: "node --import tsx e2e/support/fake-model-server.ts",
      port: FAKE_MODEL_PORT,
      env: { FAKE_MODEL_PORT: String(FAKE_MODEL_PORT) },
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: "node --import tsx e2e/support/smtp-sink-server.ts",
      port: SMTP_SINK_HTTP_PORT,
      env: { SMTP_SINK_PORT: String(SMTP_SINK_PORT), SMTP_SINK_HTTP_PORT: String(SMTP_SINK_HTTP_PORT) },
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: "node --import tsx e2e/support/slack-server.ts",
      port: SLACK_CONTROL_PORT,
      env: { SLACK_PORT: String(SLACK_PORT), SLACK_CONTROL_PORT: String(SLACK_CONTROL_PORT), SLACK_BOT_TOKEN: E2E_SLACK_BOT_TOKEN, SLACK_SIGNING_SECRET: E2E_SLACK_SIGNING_SECRET, DASHBOARD_URL: BASE_URL },
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      // The README's start (`npm start`: build if needed, migrate, next start), on a fresh database;
      // its output is kept for e2e/sign-in.setup.ts, which signs in with the password it printed.
      command: `node e2e/reset-db.mjs ${FIRST_START_OUTPUT} && npm start -- --hostname 127.0.0.1 | tee ${FIRST_START_OUTPUT}`,
      url: BASE_URL,
      env: {
        PORT: String(PORT),
        DATABASE_URL: E2E_DATABASE_URL,
        // No admin is chosen here: the first start creates the README's default admin with a
        // generated password, and e2e/sign-in.setup.ts checks the address against the README.
        OPENAI_BASE_URL: `http://127.0.0.1:${FAKE_MODEL_PORT}/v1`,
        OPENAI_API_KEY: "e2e",
        OPENAI_MODEL: "fake-e2e-model",
        NEXT_TELEMETRY_DISABLED: "1",
        // Escalation emails (docs/notifications.md) go to the SMTP server above; links point here.
        DUALSTATE_SMTP_URL: `smtp://127.0.0.1:${SMTP_SINK_PORT}`,
        DUALSTATE_SMTP_FROM: "Dualstate <dualstate@e2e.test>",
        DUALSTATE_BASE_URL: BASE_URL,
        // Slack (docs/slack.md): a default webhook and a Slack app, all on the Slack-shaped server above.
        DUALSTATE_SLACK_WEBHOOK_URL: `http://127.0.0.1:${SLACK_PORT}/hooks/e2e-default`,
        DUALSTATE_SLACK_BOT_TOKEN: E2E_SLACK_BOT_TOKEN,
        DUALSTATE_SLACK_SIGNING_SECRET: E2E_SLACK_SIGNING_SECRET,
        DUALSTATE_SLACK_API_URL: `http://127.0.0.1:${SLACK_PORT}/api`,
        // Prometheus metrics on, behind a token (e2e/metrics-endpoint.spec.ts).
        DUALSTATE_METRICS: "1",
        DUALSTATE_METRICS_TOKEN: E2E_METRICS_TOKEN,
      },
      // Includes a `next build` when no up-to-date build exists (a few minutes on two cores).
      timeout: 600_000,
      reuseExistingServer: false,
      stdout: "pipe",
      stderr: "pipe",
    },
  ],
});
