/**
 * Bounds that keep a hostile document from costing more than a normal one.
 * Real workflows are a few kilobytes, a few levels deep, and use a handful of
 * anchors, so every bound here is far above honest use.
 */
export const MAX_DOCUMENT_BYTES = 1024 * 1024;
/** Collections inside collections; the root mapping is level 1. */
export const MAX_DEPTH = 64;
/** Distinct alias nodes (`*name`) in the source. */
export const MAX_ALIASES = 100;
/** Values produced after expanding aliases; stops billion-laughs style growth early. */
export const MAX_NODES = 100_000;
/** Problems listed before the rest are summarised, so a broken file gives a readable list. */
export const MAX_PROBLEMS = 50;
/**
 * Scalars (keys and values) counted by the lexer before parsing. The parser
 * needs several microseconds per entry, so a 1 MiB file of tiny entries would
 * cost seconds; this turns it away in lexer time. Prompts are one scalar each.
 */
export const MAX_SCALARS = 2 * MAX_NODES;
