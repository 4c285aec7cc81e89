/**
 * What the CLI prints goes to a terminal, and much of it is hostile text: artifacts and feedback a
 * model wrote, workflow documents, names. A terminal obeys control sequences in it: colours are
 * the harmless end; OSC sequences set the window title, write the clipboard (OSC 52) or make links
 * that lie (OSC 8), and cursor movement can hide or rewrite lines above. So every line the CLI
 * prints passes through `terminalSafe` (main.ts wraps the output once, for every command), and JSON
 * output is made with `terminalJson`, which escapes instead of removing, so the data survives.
 */

// Whole sequences first, so their parameters do not remain as litter; all linear (no nested quantifiers).
const SEQUENCES = new RegExp(
  [
    // OSC, DCS, SOS, PM, APC: ESC ] P X ^ _ (or their 8-bit forms) up to BEL or ST, or to the end when unterminated.
    "(?:\\u001b[\\]PX^_]|[\\u0090\\u0098\\u009d\\u009e\\u009f])[^\\u0007\\u001b\\u009c]*(?:\\u0007|\\u001b\\\\|\\u009c)?",
    // CSI: ESC [ (or 8-bit CSI) parameters, intermediates, one final byte.
    "(?:\\u001b\\[|\\u009b)[\\u0030-\\u003f]*[\\u0020-\\u002f]*[\\u0040-\\u007e]?",
    // Any other escape: ESC, intermediates, one final byte.
    "\\u001b[\\u0020-\\u002f]*[\\u0030-\\u007e]?",
  ].join("|"),
  "g",
);

// What is left of C0 (all but tab and newline), DEL and C1. Matching control characters is the point here.
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** The text with terminal control sequences and control characters removed (newlines and tabs kept). */
export function terminalSafe(text: string): string {
  return text.replace(SEQUENCES, "").replace(CONTROLS, "");
}

/**
 * JSON.stringify, with the control characters it leaves raw (DEL, C1) and the line separators
 * escaped too: the same data, safe on a terminal.
 */
export function terminalJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(/[\u007f-\u009f\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
