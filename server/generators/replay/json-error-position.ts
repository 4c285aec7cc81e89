/**
 * Where JSON.parse gave up, as line and column. V8 on Node 20 names an offset for some errors
 * only ("Unexpected token ']', ... is not valid JSON" has none), so the text is scanned again by
 * a small recursive-descent reader that stops at the first character JSON does not allow there.
 * Only called after JSON.parse failed, so speed does not matter.
 */
export function jsonErrorPosition(text: string): { line: number; column: number } {
  const offset = firstErrorOffset(text);
  const before = text.slice(0, offset);
  return { line: before.split("\n").length, column: offset - before.lastIndexOf("\n") };
}

class Stop extends Error {
  constructor(readonly offset: number) {
    super();
  }
}

function firstErrorOffset(text: string): number {
  let i = 0;
  const fail = (): never => {
    throw new Stop(i);
  };
  const space = () => {
    while (i < text.length && " \t\n\r".includes(text[i]!)) i++;
  };
  const expect = (char: string) => (text[i] === char ? i++ : fail());
  const string = () => {
    expect('"');
    for (;;) {
      const char = text[i];
      if (char === undefined || char < " ") fail();
      i++;
      if (char === '"') return;
      if (char === "\\") {
        if (text[i] === "u") {
          i++;
          for (let k = 0; k < 4; k++) if (/[0-9a-fA-F]/.test(text[i] ?? "")) i++; else fail();
        } else if ('"\\/bfnrt'.includes(text[i] ?? "x")) i++;
        else fail();
      }
    }
  };
  const list = (close: string, item: () => void) => {
    i++;
    space();
    if (text[i] === close) return void i++;
    for (;;) {
      item();
      space();
      if (text[i] === close) return void i++;
      expect(",");
      space();
    }
  };
  const value = (): void => {
    space();
    const char = text[i];
    if (char === "{") return list("}", () => (string(), space(), expect(":"), value()));
    if (char === "[") return list("]", value);
    if (char === '"') return string();
    const literal = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i));
    if (!literal) fail();
    i += literal![0].length;
  };
  try {
    value();
    space();
    if (i < text.length) fail();
  } catch (error) {
    // A RangeError from absurd nesting still leaves `i` where the reader was.
    return error instanceof Stop ? error.offset : i;
  }
  return text.length;
}
