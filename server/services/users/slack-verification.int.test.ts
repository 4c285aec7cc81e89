import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Actor } from "@/server/api/trpc";
import { startSlackServer, type SlackServer } from "@/server/notifications/testing/slack-server";
import { createTestDatabase, TEST_PROVIDERS, type TestDatabase } from "@/server/persistence/testing/test-database";
import { createSlackClient } from "../slack/slack-client";
import { confirmSlackVerificationCode } from "./confirm-slack-verification-code";
import { sendSlackVerificationCode, type SlackVerificationSender } from "./send-slack-verification-code";
import { setSlackNotifications, slackNotificationsOf } from "./slack-notifications";

const AUTH_SECRET = "s".repeat(64);
const BOT_TOKEN = "xoxb-1234-5678-verifytoken";
const MINUTE = 60_000;
const APP = { verificationAvailable: true };

describe.each(TEST_PROVIDERS)("proving a Slack member id on %s", (provider) => {
  let database: TestDatabase;
  let slack: SlackServer;
  let sender: SlackVerificationSender;
  const person = (name: string): Actor => ({ id: `u-${name}`, email: `${name}@example.test`, role: "reviewer", via: "session" });
  let ada: Actor;
  let eve: Actor;
  let cy: Actor;

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    slack = await startSlackServer({ botToken: BOT_TOKEN, signingSecret: "unused-signing-secret" });
    sender = { client: createSlackClient({ apiUrl: slack.apiUrl, botToken: BOT_TOKEN }), authSecret: AUTH_SECRET, baseUrl: "https://dualstate.example.test" };
    [ada, eve, cy] = ["ada", "eve", "cy"].map(person) as [Actor, Actor, Actor];
    for (const actor of [ada, eve, cy]) await database.db.user.create({ data: { id: actor.id, name: actor.email, email: actor.email, role: "reviewer" } });
  });
  afterAll(async () => {
    await slack.close();
    await database.dispose();
  });
  beforeEach(async () => {
    slack.received.length = 0;
    slack.refuseWith = null;
    await database.db.slackVerification.deleteMany();
    await database.db.user.updateMany({ data: { slackUserId: null, notifyBySlack: false } });
  });

  /** The code in the last direct message Slack got for `slackUserId`. */
  const codeSentTo = (slackUserId: string) => {
    const dm = slack.received.filter((post) => post.kind === "chat.postMessage" && post.to === slackUserId).at(-1);
    return /code: ([0-9A-Z]{4}-[0-9A-Z]{4})$/.exec(String(dm?.body.text))?.[1];
  };
  const verifiedIdOf = async (actor: Actor) => (await database.db.user.findUniqueOrThrow({ where: { id: actor.id }, select: { slackUserId: true } })).slackUserId;
  const confirm = (actor: Actor, code: string, now?: Date) => confirmSlackVerificationCode(database.db, actor, { authSecret: AUTH_SECRET, code }, now);

  it("an id entered is only a claim until a code sent to it by Slack is typed back; then it is the account's", async () => {
    expect(await setSlackNotifications(database.db, ada, { enabled: true, slackUserId: " u0ada " }, APP)).toEqual({ enabled: true, slackUserId: null, pendingSlackUserId: "U0ADA", codeExpiresAt: null, verificationAvailable: true });
    expect(await verifiedIdOf(ada)).toBeNull();
    const now = new Date();
    expect(await sendSlackVerificationCode(database.db, ada, sender, now)).toEqual({ sentTo: "U0ADA", expiresAt: new Date(now.getTime() + 15 * MINUTE) });
    const dm = slack.received.find((post) => post.to === "U0ADA")!;
    // The message names the account that asked, so the owner can tell when it is not theirs.
    expect(JSON.stringify(dm.body.blocks)).toContain("*ada@example.test*");
    const code = codeSentTo("U0ADA")!;
    expect(code).toBeDefined();
    // Only a hash is stored.
    const stored = await database.db.slackVerification.findUniqueOrThrow({ where: { userId: ada.id } });
    expect(stored.codeHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(code.replace("-", ""));
    expect((await slackNotificationsOf(database.db, ada, APP)).codeExpiresAt).toEqual(new Date(now.getTime() + 15 * MINUTE));

    expect(await confirm(ada, code.toLowerCase())).toEqual({ slackUserId: "U0ADA" });
    expect(await slackNotificationsOf(database.db, ada, APP)).toEqual({ enabled: true, slackUserId: "U0ADA", pendingSlackUserId: null, codeExpiresAt: null, verificationAvailable: true });
    expect(await database.db.auditEvent.findFirst({ where: { action: "user.slack_verified", actorId: ada.id }, select: { detail: true } })).toMatchObject({ detail: { slackUserId: "U0ADA", takenFrom: [] } });
  });

  it("an impostor's unverified claim blocks nobody: the owner verifying the id takes it, and the claim is dropped", async () => {
    // eve enters ada's member id first: accepted as a claim, without saying whether anyone holds it.
    expect((await setSlackNotifications(database.db, eve, { enabled: true, slackUserId: "U0ADA" }, APP)).pendingSlackUserId).toBe("U0ADA");
    await sendSlackVerificationCode(database.db, eve, sender);
    // The code goes to ada's Slack, naming eve's account: eve never sees it.
    expect(JSON.stringify(slack.received.at(-1)!.body.blocks)).toContain("*eve@example.test*");

    expect((await setSlackNotifications(database.db, ada, { enabled: true, slackUserId: "U0ADA" }, APP)).pendingSlackUserId).toBe("U0ADA");
    await sendSlackVerificationCode(database.db, ada, sender);
    await confirm(ada, codeSentTo("U0ADA")!);
    expect(await verifiedIdOf(ada)).toBe("U0ADA");
    expect(await slackNotificationsOf(database.db, eve, APP)).toMatchObject({ slackUserId: null, pendingSlackUserId: null });
    await expect(confirm(eve, "0000-0000")).rejects.toMatchObject({ code: "INVALID_INPUT", message: expect.stringContaining("no Slack member id on your account waits for verification") });
    expect(await database.db.auditEvent.findFirst({ where: { action: "user.slack_verified", actorId: ada.id }, orderBy: { at: "desc" }, select: { detail: true } })).toMatchObject({ detail: { claimsDropped: expect.arrayContaining(["eve@example.test"]) } });

    // Claiming it again does not disturb ada's verified link; only proving it would.
    await setSlackNotifications(database.db, eve, { enabled: true, slackUserId: "U0ADA" }, APP);
    expect(await verifiedIdOf(ada)).toBe("U0ADA");
  });

  it("a code works once, even when sent twice at the same moment", async () => {
    await setSlackNotifications(database.db, cy, { enabled: false, slackUserId: "U0CY" }, APP);
    await sendSlackVerificationCode(database.db, cy, sender);
    const code = codeSentTo("U0CY")!;
    const results = await Promise.allSettled([confirm(cy, code), confirm(cy, code)]);
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    await expect(confirm(cy, code)).rejects.toMatchObject({ code: "INVALID_INPUT", message: expect.stringContaining("no Slack member id on your account waits") });
    expect(await verifiedIdOf(cy)).toBe("U0CY");
  });

  it("a code expires after 15 minutes, and cannot be used after", async () => {
    await setSlackNotifications(database.db, cy, { enabled: false, slackUserId: "U0CY" }, APP);
    const sent = new Date();
    await sendSlackVerificationCode(database.db, cy, sender, sent);
    const code = codeSentTo("U0CY")!;
    expect((await slackNotificationsOf(database.db, cy, APP, new Date(sent.getTime() + 14 * MINUTE))).codeExpiresAt).toEqual(new Date(sent.getTime() + 15 * MINUTE));
    expect((await slackNotificationsOf(database.db, cy, APP, new Date(sent.getTime() + 15 * MINUTE + 1_000))).codeExpiresAt).toBeNull();
    await expect(confirm(cy, code, new Date(sent.getTime() + 15 * MINUTE + 1_000))).rejects.toMatchObject({ code: "INVALID_INPUT", message: expect.stringMatching(/^code: the code sent to U0CY expired at .* UTC; send a new code$/) });
    await expect(confirm(cy, code, sent)).rejects.toMatchObject({ message: expect.stringContaining("no code is waiting for U0CY") });
    expect(await verifiedIdOf(cy)).toBeNull();
  });

  it("wrong codes are bounded: five tries, counted even when sent at once, then the code is used up", async () => {
    await setSlackNotifications(database.db, cy, { enabled: false, slackUserId: "U0CY" }, APP);
    await sendSlackVerificationCode(database.db, cy, sender);
    const code = codeSentTo("U0CY")!;
    const wrong = code.startsWith("0") ? `1${code.slice(1)}` : `0${code.slice(1)}`;
    await expect(confirm(cy, wrong)).rejects.toMatchObject({ code: "INVALID_INPUT", message: "code: the code is wrong; 4 tries left before it is used up" });
    await expect(confirm(cy, "7KX2-M9")).rejects.toMatchObject({ message: expect.stringContaining("must be the 8-character code") });
    // Ten guesses at once: at most the four tries left are judged; the rest are refused unjudged.
    const guesses = await Promise.allSettled(Array.from({ length: 10 }, () => confirm(cy, wrong)));
    const judged = guesses.filter((guess) => guess.status === "rejected" && /the code is wrong/.test(String((guess.reason as Error).message)));
    expect(judged.length).toBeLessThanOrEqual(4);
    for (let index = judged.length; index < 4; index++) await confirm(cy, wrong).catch(() => undefined);
    expect((await database.db.slackVerification.findUniqueOrThrow({ where: { userId: cy.id } })).codeHash).toBeNull();
    // The right code no longer works.
    await expect(confirm(cy, code)).rejects.toMatchObject({ message: expect.stringContaining("no code is waiting for U0CY") });
    expect(await verifiedIdOf(cy)).toBeNull();
  });

  it("codes sent are bounded per account, whatever the member id: one a minute, five an hour", async () => {
    const start = new Date(Date.now() + 2 * 3_600_000);
    const at = (minutes: number) => new Date(start.getTime() + minutes * MINUTE);
    await setSlackNotifications(database.db, cy, { enabled: false, slackUserId: "U0CY" }, APP);
    await sendSlackVerificationCode(database.db, cy, sender, at(0));
    await expect(sendSlackVerificationCode(database.db, cy, sender, at(0.5))).rejects.toMatchObject({ code: "TOO_MANY_REQUESTS", message: "A code was sent less than a minute ago; wait 30 s before asking for another." });
    for (const minute of [2, 4, 6, 8]) {
      // A new member id does not reset the count.
      await setSlackNotifications(database.db, cy, { enabled: false, slackUserId: `U0CY${minute}` }, APP);
      await sendSlackVerificationCode(database.db, cy, sender, at(minute));
    }
    await expect(sendSlackVerificationCode(database.db, cy, sender, at(10))).rejects.toMatchObject({ code: "TOO_MANY_REQUESTS", message: expect.stringMatching(/^5 codes were sent in the last hour; ask again after .* UTC\.$/) });
    expect(slack.received.filter((post) => post.kind === "chat.postMessage")).toHaveLength(5);
    await sendSlackVerificationCode(database.db, cy, sender, at(61));
    expect(slack.received).toHaveLength(6);
  });

  it("a code sent for one member id does not verify another entered since", async () => {
    await setSlackNotifications(database.db, cy, { enabled: false, slackUserId: "U0CY" }, APP);
    await sendSlackVerificationCode(database.db, cy, sender);
    const code = codeSentTo("U0CY")!;
    await setSlackNotifications(database.db, cy, { enabled: false, slackUserId: "U0ELSEWHERE" }, APP);
    await expect(confirm(cy, code)).rejects.toMatchObject({ message: expect.stringContaining("no code is waiting for U0ELSEWHERE") });
    expect(await verifiedIdOf(cy)).toBeNull();
  });

  it("without the Slack app nothing is sent and the refusal says why; a code Slack did not deliver does not stay usable", async () => {
    await setSlackNotifications(database.db, cy, { enabled: false, slackUserId: "U0CY" }, APP);
    await expect(sendSlackVerificationCode(database.db, cy, { client: null, authSecret: AUTH_SECRET })).rejects.toMatchObject({ code: "NOT_CONFIGURED", message: expect.stringContaining("needs the Dualstate Slack app (DUALSTATE_SLACK_BOT_TOKEN)") });
    expect((await slackNotificationsOf(database.db, cy, { verificationAvailable: false })).verificationAvailable).toBe(false);
    expect(slack.received).toEqual([]);

    slack.refuseWith = "user_not_found";
    await expect(sendSlackVerificationCode(database.db, cy, sender)).rejects.toMatchObject({ code: "INVALID_INPUT", message: expect.stringContaining("Slack did not deliver the code to U0CY (Slack refused chat.postMessage: user_not_found)") });
    expect(await database.db.slackVerification.findUniqueOrThrow({ where: { userId: cy.id }, select: { codeHash: true, sendsInWindow: true } })).toEqual({ codeHash: null, sendsInWindow: 1 });
  });
});
