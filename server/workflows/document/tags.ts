/**
 * Only the core schema's plain types may be written as explicit tags.
 * Everything else (`!!js/function`, `!!python/object`, `!custom`, `!!binary`,
 * `!!set`, `!!omap`, `!!timestamp`…) asks a loader to construct something,
 * and a workflow is plain data.
 */
const CORE = "tag:yaml.org,2002:";

export const SCALAR_TAGS = new Map<string, (value: unknown) => boolean>([
  [`${CORE}str`, (v) => typeof v === "string"],
  [`${CORE}int`, (v) => typeof v === "number" && Number.isInteger(v)],
  [`${CORE}float`, (v) => typeof v === "number"],
  [`${CORE}bool`, (v) => typeof v === "boolean"],
  [`${CORE}null`, (v) => v === null],
]);
export const MAP_TAG = `${CORE}map`;
export const SEQ_TAG = `${CORE}seq`;

/** `tag:yaml.org,2002:js/function` → `!!js/function`, as the author wrote it. */
export function displayTag(tag: string): string {
  return tag.startsWith(CORE) ? `!!${tag.slice(CORE.length)}` : tag;
}

/**
 * Where the tag of a node starts. The parser gives the value's offset; the
 * tag (and maybe an `&anchor`) sit just before it, separated by whitespace,
 * and neither can contain whitespace. Falls back to the value's offset.
 */
export function tagOffset(source: string, valueOffset: number): number {
  let end = valueOffset;
  for (let guard = 0; guard < 2; guard++) {
    while (end > 0 && /\s/.test(source[end - 1] ?? "")) end--;
    let start = end;
    while (start > 0 && !/\s/.test(source[start - 1] ?? "")) start--;
    if (source[start] === "!") return start;
    if (source[start] !== "&") break;
    end = start;
  }
  return valueOffset;
}
