import { describe, expect, it } from "vitest";
import { extractArtifact } from "./extract-artifact";

describe("extractArtifact", () => {
  it("takes the first fenced block with a language tag and drops the prose around it", () => {
    expect(extractArtifact("Here you go:\n```python\ndef add(a, b):\n    return a + b\n```\nHope it helps!", "code")).toBe("def add(a, b):\n    return a + b");
  });

  it("takes a fence without a language tag, and a ~~~ fence", () => {
    expect(extractArtifact("```\nx = 1\n```", "code")).toBe("x = 1");
    expect(extractArtifact("~~~ts\nconst x = 1;\n~~~", "code")).toBe("const x = 1;");
  });

  it("takes only the first of several blocks", () => {
    expect(extractArtifact("```py\nfirst()\n```\nand a test:\n```py\nsecond()\n```", "code")).toBe("first()");
  });

  it("keeps backticks inside the code: mid-line ``` and a shorter fence inside a longer one", () => {
    const code = 'doc = """Use ```code``` fences"""\nprint(doc)';
    expect(extractArtifact("```python\n" + code + "\n```", "code")).toBe(code);
    const markdown = "# Title\n```js\nlet a = 1;\n```\nEnd";
    expect(extractArtifact("````markdown\n" + markdown + "\n````\ntrailing prose", "code")).toBe(markdown);
  });

  it("keeps ``` inside a ~~~ block and ~~~ inside a ``` block", () => {
    expect(extractArtifact("~~~\na\n```\nb\n~~~", "code")).toBe("a\n```\nb");
    expect(extractArtifact("```\na\n~~~\nb\n```", "code")).toBe("a\n~~~\nb");
  });

  it("does not take inline ```code``` on one line for a fence", () => {
    expect(extractArtifact("Call ```f()``` then:\n```\ng()\n```", "code")).toBe("g()");
  });

  it("takes the rest of the reply when the fence never closes (a cut-off reply)", () => {
    expect(extractArtifact("Sure:\n```python\ndef f():\n    return 1\n", "code")).toBe("def f():\n    return 1");
  });

  it("normalizes CRLF line endings, including on the fences", () => {
    expect(extractArtifact("Intro\r\n```python\r\nx = 1\r\ny = 2\r\n```\r\nBye", "code")).toBe("x = 1\ny = 2");
    expect(extractArtifact("  x = 1\r\ny = 2\r\n", "code")).toBe("x = 1\ny = 2");
  });

  it("strips the fence's indentation from the code (fences inside a list) but keeps the code's own", () => {
    expect(extractArtifact("1. Step:\n   ```py\n   if x:\n       y()\n   ```", "code")).toBe("if x:\n    y()");
  });

  it("falls back to the whole reply, trimmed, when there is no fence", () => {
    expect(extractArtifact("\n  def f():\n    return 1\n\n", "code")).toBe("def f():\n    return 1");
  });

  it("keeps the first line's indentation and drops leading blank lines inside the block", () => {
    expect(extractArtifact("```\n\n    indented()\n```", "code")).toBe("    indented()");
  });

  it("returns an empty block as empty (the guards decide what that means)", () => {
    expect(extractArtifact("```python\n```", "code")).toBe("");
  });

  it("returns the whole reply untouched in text mode", () => {
    const reply = "Prose with ```code```\r\n```\nblock\n```\n";
    expect(extractArtifact(reply, "text")).toBe(reply);
  });
});
