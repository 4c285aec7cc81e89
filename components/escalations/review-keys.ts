/** What a key press on the review page asks for; the page carries it out. */
export type ReviewCommand = "approve" | "reject" | "edit" | "next" | "claim" | "help";

/** The shortcuts, in the order the help overlay lists them. */
export const REVIEW_SHORTCUTS: readonly { keys: readonly string[]; command: ReviewCommand; label: string }[] = [
  { keys: ["a"], command: "approve", label: "Approve (asks to confirm)" },
  { keys: ["r"], command: "reject", label: "Reject (asks to confirm, with a reason)" },
  { keys: ["e"], command: "edit", label: "Edit the artifact, then Edit and approve" },
  { keys: ["n", "j"], command: "next", label: "Next pending escalation" },
  { keys: ["c"], command: "claim", label: "Claim it (assign it to yourself)" },
  { keys: ["?"], command: "help", label: "Show or hide these shortcuts" },
];

/** What the page allows at the moment of the key press. */
export interface ReviewKeyContext {
  /** The escalation waits for a decision and the signed-in role may decide it. */
  readonly mayDecide: boolean;
  /** Edit and approve is possible (not after a spent retry budget). */
  readonly editAllowed: boolean;
  /** The role may claim, the escalation is pending and the signed-in person does not hold it yet. */
  readonly mayClaim: boolean;
}

const BY_KEY = new Map(REVIEW_SHORTCUTS.flatMap((shortcut) => shortcut.keys.map((key) => [key, shortcut.command] as const)));

/**
 * The command for `key`, or null when the key means nothing here or what it asks for is not
 * allowed now (a viewer's `a`, `e` where edits are not possible). Keys with Ctrl, Alt or Meta
 * belong to the browser. Keys typed into form fields never reach this (queue-keys' isTypingTarget).
 */
export function reviewCommand(key: string, modified: boolean, context: ReviewKeyContext): ReviewCommand | null {
  if (modified) return null;
  const command = BY_KEY.get(key) ?? null;
  switch (command) {
    case "approve":
    case "reject":
      return context.mayDecide ? command : null;
    case "edit":
      return context.mayDecide && context.editAllowed ? command : null;
    case "claim":
      return context.mayClaim ? command : null;
    case "next":
    case "help":
    case null:
      return command;
  }
}
