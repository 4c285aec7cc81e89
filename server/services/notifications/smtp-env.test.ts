import { describe, expect, it } from "vitest";
import { parseEnv } from "@/server/env";
import { redactedSmtpUrl } from "./notifications-from-env";

const complete = { DUALSTATE_SMTP_URL: "smtp://mailer:secret@mail.example.com:587", DUALSTATE_SMTP_FROM: "Dualstate <dualstate@example.com>", DUALSTATE_BASE_URL: "https://dualstate.example.com" };

describe("SMTP configuration", () => {
  it("accepts smtp and smtps URLs with a From and the dashboard's address", () => {
    expect(parseEnv(complete).DUALSTATE_SMTP_URL).toBe(complete.DUALSTATE_SMTP_URL);
    expect(parseEnv({ ...complete, DUALSTATE_SMTP_URL: "smtps://mail.example.com:465", DUALSTATE_SMTP_FROM: "dualstate@example.com" }).DUALSTATE_SMTP_FROM).toBe("dualstate@example.com");
  });

  it.each([
    [{ DUALSTATE_SMTP_FROM: undefined }, "DUALSTATE_SMTP_FROM: must be set when DUALSTATE_SMTP_URL is set"],
    [{ DUALSTATE_BASE_URL: undefined }, "DUALSTATE_BASE_URL: must be set when DUALSTATE_SMTP_URL is set"],
    [{ DUALSTATE_SMTP_URL: "http://mail.example.com" }, "DUALSTATE_SMTP_URL: must be an smtp:// or smtps:// URL"],
    [{ DUALSTATE_SMTP_FROM: "not an address" }, "DUALSTATE_SMTP_FROM: must be an email address"],
    [{ DUALSTATE_SMTP_FROM: "Evil\r\nBcc: x@example.com <a@example.com>" }, "DUALSTATE_SMTP_FROM: must be an email address"],
  ])("names the variable at fault (%j)", (change, message) => {
    expect(() => parseEnv({ ...complete, ...change })).toThrow(message);
  });

  it("hides the password in the start-up line", () => {
    expect(redactedSmtpUrl(complete.DUALSTATE_SMTP_URL)).toBe("smtp://mailer:***@mail.example.com:587");
    expect(redactedSmtpUrl("smtp://mail.example.com:25")).toBe("smtp://mail.example.com:25");
  });
});
