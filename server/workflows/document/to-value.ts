import { isAlias, isMap, isPair, isScalar, isSeq, type Alias, type Document, type Node, type Scalar } from "yaml";
import { MAX_ALIASES, MAX_DEPTH, MAX_NODES } from "./limits";
import { formatPath } from "./path";
import type { ProblemList } from "./problems";
import { RESERVED_KEYS, setOwn } from "./safe-object";
import { displayTag, MAP_TAG, SCALAR_TAGS, SEQ_TAG, tagOffset } from "./tags";

export interface ToValueOptions {
  /** Only for tests proving that setOwn alone already keeps prototypes safe. */
  allowReservedKeys?: boolean;
}

type Path = (string | number)[];

/**
 * Builds the plain JS value from the YAML tree, instead of `doc.toJS()`, so that
 * every rule is checked with the field path and position at hand:
 * tags, key kinds, duplicate and reserved keys, nesting depth, alias count and
 * the total size after alias expansion (counted as values are produced, so a
 * billion-laughs document stops after MAX_NODES values, not 10⁹).
 * Aliases are expanded into copies: the result is a tree that later code can
 * change without surprising shared state.
 */
export function toValue(doc: Document.Parsed, source: string, problems: ProblemList, options: ToValueOptions = {}): unknown {
  return new Converter(doc, source, problems, options).run();
}

/** Key text for scalars that are not strings: what the author wrote (`1.0`, not `1`). */
export function keyText(key: Scalar, source: string): string | undefined {
  if (typeof key.value === "string") return key.value;
  const [start, end] = key.range ?? [0, 0];
  const written = key.type === "PLAIN" ? source.slice(start, end).trim() : "";
  if (written !== "") return written;
  return key.value === null ? undefined : String(key.value);
}

class Converter {
  private readonly aliases = new Set<Node>();
  private nodes = 0;
  /** Set once a document-wide bound is crossed: nothing after that is worth reporting. */
  private stopped = false;
  constructor(
    private readonly doc: Document.Parsed,
    private readonly source: string,
    private readonly problems: ProblemList,
    private readonly options: ToValueOptions,
  ) {}

  run(): unknown {
    return this.convert(this.doc.contents, [], 0, new Set());
  }

  private convert(node: unknown, path: Path, depth: number, expanding: Set<Node>): unknown {
    if (this.stopped || node === null || node === undefined) return null;
    if (isAlias(node)) return this.expandAlias(node, path, depth, expanding);
    if (++this.nodes > MAX_NODES) {
      this.stop(this.aliases.size > 0 ? `aliases expand to more than ${MAX_NODES} nodes` : `has more than ${MAX_NODES} values`);
      return null;
    }
    if (isScalar(node)) return this.scalar(node, path);
    if (isMap(node) || isSeq(node)) {
      if (depth + 1 > MAX_DEPTH) {
        this.problems.add(formatPath(path), `nesting is deeper than ${MAX_DEPTH} levels`, node.range?.[0]);
        return null;
      }
      const expected = isMap(node) ? MAP_TAG : SEQ_TAG;
      if (node.tag !== undefined && node.tag !== expected) this.badTag(node, path);
      // Collections being built, so an alias back to one of them is caught as a cycle.
      const inner = new Set(expanding).add(node);
      return isMap(node) ? this.mapping(node.items, path, depth + 1, inner, node.range?.[0] ?? 0) : this.sequence(node.items, path, depth + 1, inner);
    }
    this.problems.add(formatPath(path), "unsupported YAML node");
    return null;
  }

  private expandAlias(node: Alias, path: Path, depth: number, expanding: Set<Node>): unknown {
    const offset = node.range?.[0];
    this.aliases.add(node);
    if (this.aliases.size > MAX_ALIASES) {
      this.stop(`uses more than ${MAX_ALIASES} aliases`);
      return null;
    }
    const target = node.resolve(this.doc);
    if (target === undefined) {
      this.problems.add(formatPath(path), `alias "*${node.source}" has no anchor "&${node.source}" before it`, offset);
      return null;
    }
    if (expanding.has(target)) {
      this.problems.add(formatPath(path), `alias "*${node.source}" refers to a collection that contains it`, offset);
      return null;
    }
    return this.convert(target, path, depth, expanding);
  }

  private scalar(node: Scalar, path: Path): unknown {
    if (node.tag !== undefined) {
      const matches = SCALAR_TAGS.get(node.tag);
      if (!matches) this.badTag(node, path);
      else if (!matches(node.value)) {
        this.problems.add(formatPath(path), `value ${JSON.stringify(String(node.value))} is not a valid ${displayTag(node.tag)}`, node.range?.[0]);
      }
    }
    const value = node.value;
    // The core schema yields only these; anything else would be a parser change to notice.
    if (value === null || typeof value === "string" || typeof value === "boolean" || typeof value === "number") return value;
    this.problems.add(formatPath(path), "unsupported scalar value", node.range?.[0]);
    return null;
  }

  private mapping(items: unknown[], path: Path, depth: number, expanding: Set<Node>, mapOffset: number): Record<string, unknown> {
    const result: Record<string, unknown> = {};
    const firstSeen = new Map<string, number>();
    const where = formatPath(path);
    for (const pair of items) {
      if (this.stopped) break;
      if (!isPair(pair)) continue;
      const keyNode = pair.key as Node | null;
      const keyOffset = keyNode?.range?.[0] ?? mapOffset;
      const key = this.key(keyNode, where, keyOffset);
      if (key === undefined) continue;
      if (RESERVED_KEYS.has(key) && !this.options.allowReservedKeys) {
        this.problems.add(where, `key ${JSON.stringify(key)} is not allowed`, keyOffset);
        continue;
      }
      const first = firstSeen.get(key);
      if (first !== undefined) {
        const here = this.problems.at(keyOffset);
        const before = this.problems.at(first);
        const places = `line ${here.line}, column ${here.column}; first at line ${before.line}, column ${before.column}`;
        this.problems.add(where, `duplicate key ${JSON.stringify(key)} (${places})`, keyOffset);
        continue;
      }
      firstSeen.set(key, keyOffset);
      setOwn(result, key, this.convert(pair.value, [...path, key], depth, expanding));
    }
    return result;
  }

  private sequence(items: unknown[], path: Path, depth: number, expanding: Set<Node>): unknown[] {
    const result: unknown[] = [];
    for (const [index, item] of items.entries()) {
      if (this.stopped) break;
      result.push(this.convert(item, [...path, index], depth, expanding));
    }
    return result;
  }

  /**
   * Keys must be scalars. Numbers, booleans and `null`/`~` become the text the
   * author wrote (`1.0: x` → "1.0"), matching what a JSON object can hold.
   * Sequences, mappings and aliases as keys (`? [a, b]`) are rejected: no
   * workflow field needs them and JS would flatten them to "a,b".
   */
  private key(node: Node | null, where: string, offset: number | undefined): string | undefined {
    if (node !== null && isScalar(node)) {
      if (node.tag !== undefined && !SCALAR_TAGS.has(node.tag)) {
        this.badTag(node, [], where);
        return undefined;
      }
      const text = keyText(node, this.source);
      if (text === undefined) this.problems.add(where, "mapping key is empty", offset);
      return text;
    }
    if (node === null) {
      this.problems.add(where, "mapping key is empty", offset);
      return undefined;
    }
    this.problems.add(where, "mapping keys must be plain scalars, not sequences, mappings or aliases", offset);
    return undefined;
  }

  private badTag(node: Node, path: Path, where = formatPath(path)): void {
    const offset = tagOffset(this.source, node.range?.[0] ?? 0);
    this.problems.add(where, `YAML tag ${JSON.stringify(displayTag(node.tag ?? ""))} is not allowed`, offset);
  }

  private stop(message: string): void {
    this.problems.add("document", message);
    this.stopped = true;
  }
}
