import { describe, expect, it } from "vitest";
import { loadWorkflowDocument } from "./load";
import { MAX_DOCUMENT_BYTES } from "./limits";
import { problemsOf, valueOf } from "./test-helpers";

/**
 * Wall time only as a tripwire against unbounded work (an exponential blow-up takes minutes): the
 * limits are roomy because this machine runs other tests at once; the bench measures speed.
 */
function timed<T>(run: () => T): { result: T; ms: number } {
  const start = performance.now();
  const result = run();
  return { result, ms: performance.now() - start };
}

/** Classic billion laughs: nine levels of nine aliases each, 9⁹ strings if expanded. */
function billionLaughs(): string {
  const lines = ["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"];
  for (let level = 1; level < 9; level++) {
    const name = String.fromCharCode(97 + level);
    const previous = `*${String.fromCharCode(96 + level)}`;
    lines.push(`${name}: &${name} [${Array(9).fill(previous).join(", ")}]`);
  }
  return `${lines.join("\n")}\n`;
}

describe("loadWorkflowDocument: resource limits", () => {
  it("rejects 1 MiB + 1 byte, counting UTF-8 bytes rather than characters", () => {
    expect(problemsOf("a".repeat(MAX_DOCUMENT_BYTES + 1))).toEqual([
      { path: "document", message: "is 1048577 bytes; the limit is 1 MiB (1048576 bytes)" },
    ]);
    // 524,289 characters but 1,048,578 bytes.
    expect(problemsOf("é".repeat(MAX_DOCUMENT_BYTES / 2 + 1))[0]?.message).toMatch(/^is 1048578 bytes/);
  });

  it("accepts a document of exactly 1 MiB", () => {
    const text = `a: "${"x".repeat(MAX_DOCUMENT_BYTES - 6)}"\n`;
    expect(Buffer.byteLength(text)).toBe(MAX_DOCUMENT_BYTES);
    expect(loadWorkflowDocument(text).ok).toBe(true);
  });

  it("rejects a 5 MB document without parsing it", () => {
    // Unbalanced brackets would cost the parser seconds; the size check never lets it start.
    const text = "[".repeat(5_000_000);
    const { result, ms } = timed(() => loadWorkflowDocument(text));
    expect(result).toEqual({ ok: false, problems: [{ path: "document", message: "is 5000000 bytes; the limit is 1 MiB (1048576 bytes)" }] });
    expect(ms).toBeLessThan(2000);
  });

  it("rejects billion laughs quickly, by the expanded node count", () => {
    const { result, ms } = timed(() => loadWorkflowDocument(billionLaughs()));
    expect(result).toEqual({ ok: false, problems: [{ path: "document", message: "aliases expand to more than 100000 nodes" }] });
    expect(ms).toBeLessThan(15_000);
  });

  it("rejects more than 100 aliases even when they expand to little", () => {
    const text = `x: &x 1\nlist: [${Array(101).fill("*x").join(", ")}]\n`;
    expect(problemsOf(text)).toEqual([{ path: "document", message: "uses more than 100 aliases" }]);
    expect(valueOf(`x: &x 1\nlist: [${Array(100).fill("*x").join(", ")}]\n`)).toMatchObject({ x: 1 });
  });

  it("names the path where block nesting passes 64 levels", () => {
    const text = `${Array.from({ length: 70 }, (_, i) => `${"  ".repeat(i)}k${i}:`).join("\n")} 1\n`;
    const problems = problemsOf(text);
    expect(problems).toHaveLength(1);
    const path = Array.from({ length: 64 }, (_, i) => `k${i}`).join(".");
    expect(problems[0]).toEqual({ path, line: 65, column: 129, message: "nesting is deeper than 64 levels" });
    // 64 levels is fine.
    expect(loadWorkflowDocument(`${Array.from({ length: 63 }, (_, i) => `${"  ".repeat(i)}k${i}:`).join("\n")} 1\n`).ok).toBe(true);
  });

  it("names the path when flow collections inside block ones pass the limit", () => {
    const text = `a:\n  b: ${"[".repeat(63)}${"]".repeat(63)}\n`;
    expect(problemsOf(text)[0]).toMatchObject({ path: `a.b${"[0]".repeat(62)}`, message: "nesting is deeper than 64 levels" });
  });

  it.each([
    ["flow brackets", "[".repeat(400_000) + "]".repeat(400_000), 1, 65],
    ["flow mappings", "{a: ".repeat(200_000) + "}".repeat(200_000), 1, 257],
    ["compact sequences", `${"- ".repeat(400_000)}x\n`, 1, 129],
    ["nested compact mappings", `${"- a: ".repeat(150_000)}x\n`, 1, 161],
  ])("turns away pathological %s in lexer time", (_name, text, line, column) => {
    const { result, ms } = timed(() => loadWorkflowDocument(text));
    expect(result).toEqual({ ok: false, problems: [{ path: "document", line, column, message: "nesting is deeper than 64 levels" }] });
    expect(ms).toBeLessThan(10_000);
  });

  it("does not count brackets inside strings, prompts or comments as nesting", () => {
    const brackets = "[".repeat(200);
    const text = `a: "${brackets}"\nb: '${brackets}'\nc: |\n  ${brackets}\nd: x${brackets} # ${brackets}\n`;
    expect(valueOf(text)).toEqual({ a: brackets, b: brackets, c: `${brackets}\n`, d: `x${brackets}` });
  });

  it("turns away a file of hundreds of thousands of tiny entries before parsing", () => {
    const text = "a: b\n".repeat(200_000);
    const { result, ms } = timed(() => loadWorkflowDocument(text));
    expect(result).toEqual({ ok: false, problems: [{ path: "document", line: 100_001, column: 1, message: "has more than 200000 keys and values" }] });
    expect(ms).toBeLessThan(20_000);
  });

  it("never throws, whatever the input", () => {
    for (const text of ["\u0000", "\uFEFF", "%", "!", "&", "*", "{", "]", "? ? ?", "---\n...\n---", "\ud800", "a: |\n\tb"]) {
      expect(() => loadWorkflowDocument(text)).not.toThrow();
    }
  });
});
