import { isAlias, isMap, isScalar, isSeq, type Document } from "yaml";
import type { Positioner } from "./problems";
import { keyText } from "./to-value";
import type { DocumentPath, SourcePosition } from "./types";

/**
 * Maps a field path to where its value starts in the source, so later
 * validation messages can point at a line and column. Works for JSON too,
 * since JSON input goes through the same parser. A path that continues
 * through an alias continues at the anchored node; a path ending at an alias
 * points at the alias itself, where the field is written. For a key whose value is empty, the empty value's position (just
 * after the colon) is returned.
 */
export function createLocator(doc: Document.Parsed, source: string, position: Positioner) {
  return (path: DocumentPath): SourcePosition | undefined => {
    let node: unknown = doc.contents;
    for (const segment of path) {
      if (isAlias(node)) node = node.resolve(doc);
      if (isMap(node) && typeof segment === "string") {
        node = node.items.find((pair) => isScalar(pair.key) && keyText(pair.key, source) === segment)?.value;
      } else if (isSeq(node) && typeof segment === "number") {
        node = node.items[segment];
      } else {
        return undefined;
      }
    }
    const offset = (node as { range?: [number, number, number] } | null | undefined)?.range?.[0];
    if (offset === undefined) return undefined;
    return position(offset);
  };
}
