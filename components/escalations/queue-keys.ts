/** What a key press in the review queue asks for; the queue component carries it out. */
export type QueueCommand = { kind: "select"; index: number } | { kind: "open" | "approve" | "reject"; index: number } | null;

/**
 * j/k move the selection (clamped, starting at the first row), Enter opens, a approves and r
 * rejects the selected row. Keys typed into form fields and with modifiers are not commands.
 */
export function queueCommand(key: string, selected: number, rowCount: number, modified: boolean): QueueCommand {
  if (modified || rowCount === 0) return null;
  const current = Math.min(Math.max(selected, 0), rowCount - 1);
  switch (key) {
    case "j":
    case "ArrowDown":
      return { kind: "select", index: selected < 0 ? 0 : Math.min(current + 1, rowCount - 1) };
    case "k":
    case "ArrowUp":
      return { kind: "select", index: selected < 0 ? 0 : Math.max(current - 1, 0) };
    case "Enter":
      return selected < 0 ? null : { kind: "open", index: current };
    case "a":
      return selected < 0 ? null : { kind: "approve", index: current };
    case "r":
      return selected < 0 ? null : { kind: "reject", index: current };
    default:
      return null;
  }
}

/** Keys typed into inputs, selects, text areas and dialogs belong to them. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!target || typeof (target as Element).closest !== "function") return false;
  return (target as Element).closest("input, textarea, select, [contenteditable=true], [role=dialog]") !== null;
}
