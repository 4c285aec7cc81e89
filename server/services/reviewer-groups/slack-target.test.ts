import { describe, expect, it } from "vitest";
import { groupNameProblem } from "@/server/review-policy/group-name";
import { slackChannelProblem, webhookHint, webhookUrlProblem } from "./slack-target";

describe("a group's Slack webhook URL", () => {
  it.each([
    ["https://hooks.slack.com/services/T0/B0/abc", null],
    ["http://127.0.0.1:4100/hook", null],
    ["http://localhost/hook", null],
    ["http://hooks.slack.com/services/T0/B0/abc", /https:\/\//],
    ["ftp://hooks.slack.com/x", /https:\/\//],
    ["https://user:pw@hooks.slack.com/x", /user name or password/],
    ["not a url", /must be a URL/],
    [`https://hooks.slack.com/${"a".repeat(600)}`, /limit is 500/],
  ])("%s", (url, problem) => {
    const found = webhookUrlProblem(url);
    if (problem === null) expect(found).toBeNull();
    else expect(found).toMatch(problem);
  });

  it("is shown only as its host and last four characters", () => {
    expect(webhookHint("https://hooks.slack.com/services/T0/B0/secretWXYZ")).toBe("hooks.slack.com/…WXYZ");
    expect(webhookHint(null)).toBeNull();
    expect(webhookHint("garbage-secret-1234")).toBe("webhook/…1234");
  });
});

describe("names", () => {
  it.each([["C0123ABCD", true], ["#reviews", true], ["two words", false], ["", false], ["x".repeat(81), false]])("Slack channel %j", (channel, ok) => {
    expect(slackChannelProblem(channel) === null).toBe(ok);
  });
  it.each([["security", true], ["on-call.eu_1", true], ["-lead", false], ["two words", false], ["", false], ["a".repeat(65), false], ["ümlaut", false]])("group %j", (name, ok) => {
    expect(groupNameProblem(name) === null).toBe(ok);
  });
});
