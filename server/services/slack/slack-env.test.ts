import { describe, expect, it } from "vitest";
import { parseEnv } from "@/server/env";
import { parseSlackMemberId } from "@/server/notifications/slack-member-id";
import { describeSlackSetup, slackConfigured } from "./slack-from-env";
import { responseUrlAllowedFor } from "./slack-interactions-from-env";

const app = { DUALSTATE_SLACK_BOT_TOKEN: "xoxb-1234-5678-abcdef", DUALSTATE_SLACK_SIGNING_SECRET: "8f742231b10e8888abcd99yyyzzz85a5", DUALSTATE_BASE_URL: "https://dualstate.example.com" };
const WEBHOOK = "https://hooks.slack.com/services/T000/B000/secretsecret";

describe("Slack configuration", () => {
  it("accepts a Slack app, a default webhook, or both; Slack's API by default", () => {
    expect(parseEnv(app)).toMatchObject({ DUALSTATE_SLACK_BOT_TOKEN: app.DUALSTATE_SLACK_BOT_TOKEN, DUALSTATE_SLACK_API_URL: "https://slack.com/api" });
    expect(parseEnv({ DUALSTATE_SLACK_WEBHOOK_URL: WEBHOOK, DUALSTATE_BASE_URL: app.DUALSTATE_BASE_URL }).DUALSTATE_SLACK_WEBHOOK_URL).toBe(WEBHOOK);
    expect(slackConfigured(parseEnv({ ...app, DUALSTATE_SLACK_WEBHOOK_URL: WEBHOOK }))).toBe(true);
    expect(slackConfigured(parseEnv({}))).toBe(false);
  });

  it.each([
    [{ DUALSTATE_SLACK_SIGNING_SECRET: undefined }, "DUALSTATE_SLACK_SIGNING_SECRET: must be set when DUALSTATE_SLACK_BOT_TOKEN is set"],
    [{ DUALSTATE_BASE_URL: undefined }, "DUALSTATE_BASE_URL: must be set when Slack is configured"],
    [{ DUALSTATE_SLACK_BOT_TOKEN: "not-a-token" }, "DUALSTATE_SLACK_BOT_TOKEN: must be a Slack bot token"],
    [{ DUALSTATE_SLACK_BOT_TOKEN: "xoxb-abc\r\nX-Injected: 1" }, "DUALSTATE_SLACK_BOT_TOKEN: must be a Slack bot token"],
    [{ DUALSTATE_SLACK_SIGNING_SECRET: "short" }, "DUALSTATE_SLACK_SIGNING_SECRET: must be at least 16 characters"],
    [{ DUALSTATE_SLACK_WEBHOOK_URL: "ftp://hooks.slack.com/x" }, "DUALSTATE_SLACK_WEBHOOK_URL: must be an http(s) URL"],
    [{ DUALSTATE_SLACK_API_URL: "slack.com/api" }, "DUALSTATE_SLACK_API_URL: must be an http(s) URL"],
  ])("names the variable at fault (%j)", (change, message) => {
    expect(() => parseEnv({ ...app, ...change })).toThrow(message);
  });

  it("a webhook alone also needs the dashboard's address", () => {
    expect(() => parseEnv({ DUALSTATE_SLACK_WEBHOOK_URL: WEBHOOK })).toThrow("DUALSTATE_BASE_URL: must be set when Slack is configured");
  });

  it("never names the webhook URL (a secret) in the start-up line", () => {
    const line = describeSlackSetup(parseEnv({ ...app, DUALSTATE_SLACK_WEBHOOK_URL: WEBHOOK }));
    expect(line).toBe("Slack escalation messages by a Slack app (https://slack.com/api) and a default incoming webhook");
    expect(line).not.toContain("secretsecret");
  });

  it("answers clicks only on Slack's hosts over https, or the configured API's origin", () => {
    const allowed = responseUrlAllowedFor("http://127.0.0.1:4000/api");
    expect(allowed(new URL("https://hooks.slack.com/actions/T/1/x"))).toBe(true);
    expect(allowed(new URL("http://127.0.0.1:4000/respond/1"))).toBe(true);
    for (const url of ["http://hooks.slack.com/actions/x", "https://hooks.slack.com.evil.example/x", "https://evilslack.com/x", "http://127.0.0.1:4001/x", "http://localhost:4000/x"]) expect(allowed(new URL(url))).toBe(false);
  });
});

describe("Slack member ids", () => {
  it.each([["U0123ABCD", "U0123ABCD"], [" w0123abcd ", "W0123ABCD"]])("accepts %j", (text, id) => {
    expect(parseSlackMemberId(text)).toEqual({ ok: true, id });
  });
  it.each(["", "C0123ABCD", "U0", "U0123-ABC", `U${"A".repeat(30)}`, "<@U0123ABCD>"])("refuses %j", (text) => {
    expect(parseSlackMemberId(text)).toMatchObject({ ok: false, problem: expect.stringContaining("Slack member id") });
  });
});
