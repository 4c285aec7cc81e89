import { expect, test } from "@playwright/test";

// The server under test runs with DUALSTATE_METRICS=1 and this token (playwright.config.ts).
const TOKEN = "e2e-metrics-scrape-token-0123456789";

// A scraper has no session: no cookies at all.
test.use({ storageState: { cookies: [], origins: [] } });

test("/metrics is scraped without a session, with the bearer token, and shows the embedded worker's published metrics", async ({ request }) => {
  const refused = await request.get("/metrics", { maxRedirects: 0 });
  // Not sent to the sign-in page: the endpoint answers for itself.
  expect(refused.status()).toBe(401);
  expect(refused.headers()["www-authenticate"]).toBe('Bearer realm="dualstate-metrics"');

  const scraped = await request.get("/metrics", { maxRedirects: 0, headers: { authorization: `Bearer ${TOKEN}` } });
  expect(scraped.status()).toBe(200);
  expect(scraped.headers()["content-type"]).toBe("text/plain; version=0.0.4; charset=utf-8");
  const text = await scraped.text();
  for (const metric of ["dualstate_queue_depth", "dualstate_runs_in_flight", "dualstate_escalations_pending", "dualstate_claim_duration_seconds", "dualstate_guard_duration_seconds"]) {
    expect(text).toContain(`# TYPE ${metric} `);
  }
  // The embedded worker runs in the `dualstate start` process, not in Next.js's: what it measured arrives through the database.
  await expect
    .poll(async () => (await (await request.get("/metrics", { headers: { authorization: `Bearer ${TOKEN}` } })).text()).match(/^dualstate_workers_reporting (\d+)$/m)?.[1], { timeout: 30_000 })
    .toBe("1");

  // The page a signed-out visitor gets for any other path is still the sign-in redirect.
  const page = await request.get("/runs", { maxRedirects: 0 });
  expect(page.status()).toBe(307);
});
