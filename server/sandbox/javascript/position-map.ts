/**
 * Maps positions in transpiled code back to the source, from a source map's `mappings`
 * (Base64 VLQ, https://sourcemaps.info/spec.html). Only what error messages need: one source,
 * line and column. Lines and columns are 1-based in and out, as QuickJS reports them.
 */
export type PositionMap = (line: number, column: number) => { line: number; column: number } | undefined;

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** [generatedColumn, sourceLine, sourceColumn], 0-based, per generated line. */
type Segment = readonly [number, number, number];

function decodeVlq(text: string): number[] {
  const values: number[] = [];
  let value = 0;
  let shift = 0;
  for (const char of text) {
    const digit = BASE64.indexOf(char);
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
      continue;
    }
    values.push(value & 1 ? -(value >>> 1) : value >>> 1);
    value = 0;
    shift = 0;
  }
  return values;
}

function decodeMappings(mappings: string): Segment[][] {
  let sourceLine = 0;
  let sourceColumn = 0;
  return mappings.split(";").map((line) => {
    let generatedColumn = 0;
    const segments: Segment[] = [];
    for (const encoded of line.split(",")) {
      if (!encoded) continue;
      const fields = decodeVlq(encoded);
      generatedColumn += fields[0] ?? 0;
      if (fields.length < 4) continue;
      sourceLine += fields[2] ?? 0;
      sourceColumn += fields[3] ?? 0;
      segments.push([generatedColumn, sourceLine, sourceColumn]);
    }
    return segments.sort((a, b) => a[0] - b[0]);
  });
}

/** `lineOffset`: lines the sandbox put above the transpiled code (see TESTS_WRAPPER_LINES). */
export function createPositionMap(mappings: string, lineOffset = 0): PositionMap {
  const lines = decodeMappings(mappings);
  return (line, column) => {
    const segments = lines[line - 1 - lineOffset];
    if (!segments || segments.length === 0) return undefined;
    let best = segments[0];
    for (const segment of segments) if (segment[0] <= column - 1) best = segment;
    return best && { line: best[1] + 1, column: best[2] + 1 };
  };
}
