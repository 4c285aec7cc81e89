/** How a Slack member id is proved (server/services/users/*-slack-verification-code.ts). */
export const SLACK_VERIFICATION_LIMITS = {
  /** A code works this long after it is sent. */
  codeLifetimeMs: 15 * 60_000,
  /** Wrong codes entered before the code is used up (a new one must be sent). */
  maxWrongAttempts: 5,
  /** The least time between two codes sent for one account. */
  minResendMs: 60_000,
  /** At most this many codes per account in `sendWindowMs`. */
  maxSendsPerWindow: 5,
  sendWindowMs: 3_600_000,
} as const;
