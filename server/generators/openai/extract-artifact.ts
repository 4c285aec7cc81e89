/**
 * The artifact inside a model's reply. Models wrap code in Markdown fences and add prose around
 * it ("Here is the implementation: ..."); the workflow's guards must see only the code.
 */
export type ExtractMode = "code" | "text";

/** A fence line: any indentation (models indent fences inside lists), 3+ backticks or tildes, an info string. */
const OPENING_FENCE = /^(?<indent>[ \t]*)(?<fence>`{3,}|~{3,})(?<info>.*)$/;

/**
 * "code": the body of the first fenced block (``` or ~~~, with or without a language tag); an
 * unterminated fence (a reply cut off) takes the rest; with no fence at all, the whole reply
 * trimmed. Fences follow CommonMark so that code containing ``` (in a string, or a shorter fence
 * inside a longer one) is not cut short: a block closes only on a line holding nothing but the
 * same character, at least as many times as it opened. Line endings become "\n".
 * "text": the reply as it is.
 */
export function extractArtifact(reply: string, mode: ExtractMode): string {
  if (mode === "text") return reply;
  const lines = reply.split(/\r\n|\r|\n/);
  for (const [index, line] of lines.entries()) {
    const open = OPENING_FENCE.exec(line)?.groups;
    if (!open?.fence || open.indent === undefined) continue;
    // "```inline```" on one line is inline code, not a fence (CommonMark forbids ` in the info string).
    if (open.fence.startsWith("`") && open.info?.includes("`")) continue;
    const body: string[] = [];
    for (const next of lines.slice(index + 1)) {
      if (closes(next, open.fence)) break;
      body.push(dedent(next, open.indent.length));
    }
    return tidy(body.join("\n"));
  }
  return lines.join("\n").trim();
}

function closes(line: string, fence: string): boolean {
  const trimmed = line.trim();
  return trimmed.length >= fence.length && trimmed === (fence[0] ?? "").repeat(trimmed.length);
}

/** Removes up to `width` leading whitespace characters: the fence's own indentation. */
function dedent(line: string, width: number): string {
  let cut = 0;
  while (cut < width && (line[cut] === " " || line[cut] === "\t")) cut += 1;
  return line.slice(cut);
}

/** Drops blank lines before the code and trailing whitespace after it; the first line's indentation stays. */
function tidy(code: string): string {
  return code.replace(/^(?:[ \t]*\n)+/, "").trimEnd();
}
