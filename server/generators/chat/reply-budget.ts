/**
 * The byte budget of one reply. A model (or a misbehaving proxy) can send megabytes; what we keep
 * goes into the ledger, the database and the next prompt, so it is capped. Text is cut at a UTF-8
 * character boundary so the kept part is always valid text, never half a code point.
 */
export class ReplyBudget {
  #remaining: number;
  #exceeded = false;

  constructor(maxBytes: number) {
    this.#remaining = maxBytes;
  }

  /** True once some text did not fit: the reply is truncated. */
  get exceeded(): boolean {
    return this.#exceeded;
  }

  /** Returns the part of `text` that still fits (all of it, a prefix, or ""). */
  take(text: string): string {
    if (this.#exceeded) return "";
    const bytes = Buffer.byteLength(text, "utf8");
    if (bytes <= this.#remaining) {
      this.#remaining -= bytes;
      return text;
    }
    this.#exceeded = true;
    const kept = cutUtf8(text, this.#remaining);
    this.#remaining = 0;
    return kept;
  }
}

/** The longest prefix of `text` whose UTF-8 encoding fits in `maxBytes`. */
export function cutUtf8(text: string, maxBytes: number): string {
  const encoded = Buffer.from(text, "utf8");
  if (encoded.length <= maxBytes) return text;
  let end = Math.max(0, maxBytes);
  // A byte 10xxxxxx continues a multi-byte character: step back to where that character starts.
  while (end > 0 && ((encoded[end] ?? 0) & 0xc0) === 0x80) end -= 1;
  return encoded.subarray(0, end).toString("utf8");
}
