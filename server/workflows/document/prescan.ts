import { Lexer } from "yaml";
import { MAX_DEPTH, MAX_SCALARS } from "./limits";

/** Lexer control tokens: they mark structure but take no characters of the source. */
const DOCUMENT = "\x02";
const FLOW_END = "\x18";
const SCALAR = "\x1f";

export interface PrescanFinding {
  offset: number;
  message: string;
}

/**
 * Finds pathological nesting with the lexer alone, before the parser builds
 * a tree. A 1 MiB file of `[[[[…` or `- - - …` or `- a: - a: …` costs the
 * parser seconds and hundreds of megabytes (it only stops at stack overflow),
 * while lexing is linear and allocates nothing per level.
 *
 * Two cheap signals, both exact enough because honest documents are far from them:
 * - flow depth: `[`/`{` indicator tokens minus `]`/`}` (quoted and block
 *   scalars arrive as single tokens, so brackets inside text never count);
 * - block indicators (`-`, `?`, `:`) on one line outside flow: each one opens
 *   a nested collection or is an error, so more than MAX_DEPTH of them on a
 *   line cannot be a valid shallow document.
 * Depth that builds up over many lines needs quadratic indentation, so it is
 * bounded by the size limit and reported later with its field path.
 *
 * It also counts scalars (see MAX_SCALARS) for the same reason: to refuse
 * work the parser would spend seconds on.
 *
 * Returns the first bound crossed and its offset, or undefined.
 */
export function prescan(text: string): PrescanFinding | undefined {
  const tooDeep = (offset: number) => ({ offset, message: `nesting is deeper than ${MAX_DEPTH} levels` });
  let scalars = 0;
  let offset = 0;
  let flowDepth = 0;
  let indicatorsOnLine = 0;
  let afterScalarMarker = false;
  for (const token of new Lexer().lex(text)) {
    if (token === DOCUMENT || token === FLOW_END || token === SCALAR) {
      afterScalarMarker = token === SCALAR;
      if (afterScalarMarker && ++scalars > MAX_SCALARS) {
        return { offset, message: `has more than ${MAX_SCALARS} keys and values` };
      }
      continue;
    }
    if (!afterScalarMarker) {
      if (token === "[" || token === "{") {
        if (++flowDepth > MAX_DEPTH) return tooDeep(offset);
      } else if (token === "]" || token === "}") {
        flowDepth = Math.max(0, flowDepth - 1);
      } else if (flowDepth === 0 && (token === "-" || token === "?" || token === ":")) {
        if (++indicatorsOnLine > MAX_DEPTH) return tooDeep(offset);
      }
    }
    if (token.includes("\n")) indicatorsOnLine = 0;
    afterScalarMarker = false;
    offset += token.length;
  }
  return undefined;
}
