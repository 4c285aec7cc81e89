import ts from "typescript";
import { constantNumber } from "../constant-number";
import type { Rule, RuleContext } from "../context";
import { skipWrappers } from "../syntax-positions";

/**
 * One allocation larger than this, with its size written as a constant, is a finding. 256 MiB is
 * more than any generated function or test needs at once and well under what takes a worker down.
 */
export const MAX_CONSTANT_ALLOCATION_BYTES = 256 * 1024 * 1024;

/** Bytes per element: strings count one byte a character (V8's one-byte strings), arrays a pointer. */
const ARRAY_SLOT = 8;
const TYPED_ARRAYS: Record<string, number> = {
  Int8Array: 1, Uint8Array: 1, Uint8ClampedArray: 1, Int16Array: 2, Uint16Array: 2, Int32Array: 4, Uint32Array: 4,
  Float32Array: 4, Float64Array: 8, BigInt64Array: 8, BigUint64Array: 8,
};
const BYTE_BUFFERS = new Set(["ArrayBuffer", "SharedArrayBuffer", "Buffer", "Buffer.alloc", "Buffer.allocUnsafe", "Buffer.allocUnsafeSlow"]);
const MAX_DEPTH = 20;

interface Allocation {
  /** What the feedback calls it: "String.repeat", "new ArrayBuffer". */
  kind: string;
  bytes: number;
  /** Characters of a string or slots of an array, for a method called on the result. */
  length?: number;
}

/**
 * Memory bombs written as constants: `"x".repeat(1e10)`, `new Array(2 ** 32 - 1).fill(0)`,
 * `new ArrayBuffer(1e12)`, `Buffer.alloc(1e10)`, `new Uint8Array(1 << 31)`, `Array.from({ length: 1e10 })`,
 * `"x".padEnd(1e10)`, and nested forms (`"x".repeat(1e5).repeat(1e5)`). The innermost allocation that
 * is too big is reported. A size from a parameter or a computation on data is not known and passes.
 */
/** The last name of every callee that can allocate, to skip all other calls cheaply. */
const ALLOCATOR_NAMES = new Set(["repeat", "padStart", "padEnd", "Array", "from", "apply", "ArrayBuffer", "SharedArrayBuffer", "Buffer", "alloc", "allocUnsafe", "allocUnsafeSlow", ...Object.keys(TYPED_ARRAYS)]);

export const checkMemoryExhaustion: Rule = (node, context) => {
  if (!ts.isCallExpression(node) && !ts.isNewExpression(node)) return;
  const callee = skipWrappers(node.expression);
  const lastName = ts.isPropertyAccessExpression(callee) ? callee.name.text : ts.isIdentifier(callee) ? callee.text : ts.isElementAccessExpression(callee) ? context.resolver.memberKey(callee) : undefined;
  // aliases (`const B = Buffer`) and computed names are followed only for these names
  if (lastName === undefined || !ALLOCATOR_NAMES.has(lastName)) {
    if (!ts.isIdentifier(callee) || !context.resolver.isDeclaredHere(callee)) return;
  }
  const allocation = allocationOf(node, context, 0);
  if (!allocation || !(allocation.bytes > MAX_CONSTANT_ALLOCATION_BYTES)) return;
  if (innerAllocationTooBig(node, context)) return;
  context.report(node, "memory-exhaustion", "large-allocation", `${allocation.kind} of ${formatBytes(allocation.bytes)}`);
};

function innerAllocationTooBig(node: ts.CallExpression | ts.NewExpression, context: RuleContext): boolean {
  const inner = [...(node.arguments ?? [])];
  if (ts.isPropertyAccessExpression(node.expression)) inner.push(node.expression.expression);
  return inner.some((expression) => {
    const candidate = skipWrappers(expression);
    if (!ts.isCallExpression(candidate) && !ts.isNewExpression(candidate)) return false;
    const allocation = allocationOf(candidate, context, 0);
    return allocation !== undefined && allocation.bytes > MAX_CONSTANT_ALLOCATION_BYTES;
  });
}

function allocationOf(node: ts.CallExpression | ts.NewExpression, context: RuleContext, depth: number): Allocation | undefined {
  const args = node.arguments ?? [];
  const [first] = args;
  const size = (expression: ts.Expression | undefined) => (expression ? constantNumber(expression, context.resolver) : undefined);
  const callee = skipWrappers(node.expression);
  if (ts.isPropertyAccessExpression(callee)) {
    const method = callee.name.text;
    if (ts.isCallExpression(node) && method === "repeat") {
      const count = size(first);
      if (count === undefined) return undefined;
      const length = (lengthOf(callee.expression, context, depth + 1) ?? 1) * count;
      return { kind: "String.repeat", bytes: length, length };
    }
    if (ts.isCallExpression(node) && (method === "padStart" || method === "padEnd")) {
      const length = size(first);
      return length === undefined ? undefined : { kind: `String.${method}`, bytes: length, length };
    }
  }
  const path = context.resolver.pathOf(callee)?.join(".");
  if (path === undefined) return undefined;
  if (path === "Array" && args.length === 1) {
    const length = size(first);
    return length === undefined ? undefined : { kind: ts.isNewExpression(node) ? "new Array" : "Array()", bytes: length * ARRAY_SLOT, length };
  }
  if ((path === "Array.from" || path === "Array.apply") && args.length >= 1) {
    const source = path === "Array.from" ? first : args[1];
    const length = source && ts.isObjectLiteralExpression(skipWrappers(source)) ? lengthProperty(skipWrappers(source) as ts.ObjectLiteralExpression, context) : undefined;
    if (length === undefined) return undefined;
    // Array.from({ length: 1e5 }, () => new Array(1e5).fill(0)): every element is an allocation of its own
    const each = path === "Array.from" && args[1] ? callbackAllocation(args[1], context, depth + 1) : 0;
    return { kind: `${path}({ length })`, bytes: length * (ARRAY_SLOT + each), length };
  }
  if (BYTE_BUFFERS.has(path)) {
    const bytes = size(first);
    return bytes === undefined ? undefined : { kind: ts.isNewExpression(node) ? `new ${path}` : path, bytes };
  }
  const elementSize = TYPED_ARRAYS[path];
  if (elementSize !== undefined && ts.isNewExpression(node)) {
    const length = size(first); // a number is a length; an array or a buffer is not
    return length === undefined ? undefined : { kind: `new ${path}`, bytes: length * elementSize };
  }
  return undefined;
}

/** Bytes one call of a mapping callback allocates, when its result is a constant-size allocation. */
function callbackAllocation(callback: ts.Expression, context: RuleContext, depth: number): number {
  const node = skipWrappers(callback);
  if (!ts.isArrowFunction(node) || ts.isBlock(node.body)) return 0;
  let result: ts.Expression = skipWrappers(node.body);
  // new Array(n).fill(0), .map(…), .slice(): the same size as the array they are called on
  while (ts.isCallExpression(result) && ts.isPropertyAccessExpression(result.expression) && ["fill", "map", "slice", "concat"].includes(result.expression.name.text)) {
    result = skipWrappers(result.expression.expression);
  }
  if (!ts.isCallExpression(result) && !ts.isNewExpression(result)) return 0;
  return allocationOf(result, context, depth + 1)?.bytes ?? 0;
}

function lengthProperty(literal: ts.ObjectLiteralExpression, context: RuleContext): number | undefined {
  for (const property of literal.properties) {
    if (ts.isPropertyAssignment(property) && (ts.isIdentifier(property.name) || ts.isStringLiteral(property.name)) && property.name.text === "length") {
      return constantNumber(property.initializer, context.resolver);
    }
  }
  return undefined;
}

/** The length of a string or array expression when the code fixes it: `"ab"`, `"x".repeat(1e5)`. */
function lengthOf(expression: ts.Expression, context: RuleContext, depth: number): number | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const node = skipWrappers(expression);
  if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
    const allocation = allocationOf(node, context, depth + 1);
    if (allocation) return allocation.length;
  }
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const left = lengthOf(node.left, context, depth + 1);
    const right = left === undefined ? undefined : lengthOf(node.right, context, depth + 1);
    return left === undefined || right === undefined ? undefined : left + right;
  }
  const value = context.resolver.constantOf(node);
  return typeof value === "string" || Array.isArray(value) ? value.length : undefined;
}

const UNITS = ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];

/** "~9.3 GiB"; Infinity and sizes past 2^70 are "more than 1 ZiB". */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes >= 2 ** 70) return "more than 1 ZiB";
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `~${value >= 100 ? Math.round(value) : Number(value.toPrecision(2))} ${UNITS[unit]}`;
}
