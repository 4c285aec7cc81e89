import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, TEST_PROVIDERS, type TestDatabase } from "@/server/persistence/testing/test-database";
import { createTestCaller } from "../testing/test-caller";
import type { Actor } from "../trpc";

// The test process has no DUALSTATE_SLACK_BOT_TOKEN: a deployment without the Slack app.
describe.each(TEST_PROVIDERS)("verifying a Slack member id without the Slack app, through the API, on %s", (provider) => {
  let database: TestDatabase;
  const vic: Actor = { id: "u-vic", email: "vic@example.test", role: "viewer", via: "session" };

  beforeAll(async () => {
    expect(process.env.DUALSTATE_SLACK_BOT_TOKEN).toBeUndefined();
    database = await createTestDatabase(provider);
    await database.db.user.create({ data: { id: vic.id, name: "Vic", email: vic.email, role: "viewer" } });
  });
  afterAll(async () => {
    await database.dispose();
  });

  it("keeps the id as a claim, says verification needs the Slack app, sends nothing, and answers each refusal with its cause", async () => {
    const caller = createTestCaller(database.db, vic);
    expect(await caller.session.setSlackNotifications({ enabled: false, slackUserId: "U0VIC" })).toMatchObject({ slackUserId: null, pendingSlackUserId: "U0VIC", verificationAvailable: false });
    expect(await caller.session.slackNotifications()).toMatchObject({ pendingSlackUserId: "U0VIC", verificationAvailable: false });
    await expect(caller.session.sendSlackVerificationCode()).rejects.toMatchObject({ code: "PRECONDITION_FAILED", message: expect.stringContaining("needs the Dualstate Slack app (DUALSTATE_SLACK_BOT_TOKEN), which is not configured: nothing was sent") });
    expect(await database.db.slackVerification.findUniqueOrThrow({ where: { userId: vic.id }, select: { codeHash: true, lastSentAt: true } })).toEqual({ codeHash: null, lastSentAt: null });
    await expect(caller.session.confirmSlackVerificationCode({ code: "7KX2-M9QD" })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining("code: no code is waiting for U0VIC") });
    await expect(caller.session.confirmSlackVerificationCode({ code: "x".repeat(21) })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining("code: at most 20 characters") });
  });
});
