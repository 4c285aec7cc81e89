import ts from "typescript";
import type { Rule, RuleContext } from "../context";
import { PROTOTYPE, SHARED_BUILTINS, type Path } from "../policy";
import { isWriteTarget } from "../syntax-positions";

/** Calls that change an object's properties or prototype, by their first argument. */
const MUTATORS = new Set([
  "Object.defineProperty",
  "Object.defineProperties",
  "Object.setPrototypeOf",
  "Object.assign",
  "Reflect.defineProperty",
  "Reflect.set",
  "Reflect.setPrototypeOf",
  "Reflect.deleteProperty",
]);

/**
 * Changes to objects every other piece of code shares:
 * - any `__proto__` member access (an object literal's own `{ __proto__: null }` is fine);
 * - assigning, deleting or incrementing members of built-ins and their prototypes
 *   (`Array.prototype.x = …`, `Object.prototype[k] = …`, `JSON.parse = …`, `Error.prepareStackTrace = …`,
 *   `x.constructor.prototype.y = …`, `Object.getPrototypeOf(x).y = …`, all of which are "prototype");
 * - Object.defineProperty / setPrototypeOf / assign and their Reflect forms on those objects.
 * Reading prototypes and `Object.freeze(Object.prototype)` (hardening, not pollution) pass, and so
 * do writes with a computed key on ordinary objects: whether `obj[key] = v` pollutes depends on data.
 */
export const checkPrototypePollution: Rule = (node, context) => {
  if (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) {
    if (context.resolver.memberKey(node) === "__proto__") context.report(node, "prototype-pollution", "__proto__");
    if (isWriteTarget(node)) checkWrite(node, context);
  } else if (ts.isCallExpression(node)) {
    checkMutatorCall(node, context);
  }
};

/** The shared object a path lands in, if it is one: "Object.prototype", "JSON", "prototype". */
function sharedTarget(path: Path | undefined): string | undefined {
  if (!path) return undefined;
  const [root, second] = path;
  if (root === undefined) return undefined;
  if (root === PROTOTYPE) return "prototype";
  if (!SHARED_BUILTINS.has(root)) return undefined;
  return second === "prototype" ? `${root}.prototype` : root;
}

function checkWrite(node: ts.PropertyAccessExpression | ts.ElementAccessExpression, context: RuleContext): void {
  const objectPath = context.resolver.pathOf(node.expression);
  const target = sharedTarget(objectPath);
  if (!target || !objectPath) return;
  const key = context.resolver.memberKey(node);
  const object = objectPath[0]?.startsWith("<") ? target : objectPath.join(".");
  context.report(node, "prototype-pollution", target, `assignment to ${object}${key === undefined ? "[<computed>]" : `.${key}`}`);
}

const LEGACY_DEFINERS = new Set(["__defineGetter__", "__defineSetter__"]);

function checkMutatorCall(call: ts.CallExpression, context: RuleContext): void {
  const method = call.expression;
  if ((ts.isPropertyAccessExpression(method) || ts.isElementAccessExpression(method)) && LEGACY_DEFINERS.has(context.resolver.memberKey(method) ?? "")) {
    // Object.prototype.__defineGetter__("x", f) defines on the receiver
    const target = sharedTarget(context.resolver.pathOf(method.expression));
    if (target) context.report(call, "prototype-pollution", target, `${target}.${context.resolver.memberKey(method)}`);
    return;
  }
  const callee = context.resolver.pathOf(call.expression);
  const [first] = call.arguments;
  if (!callee || !first || !MUTATORS.has(callee.join("."))) return;
  const target = sharedTarget(context.resolver.pathOf(first));
  if (target) context.report(call, "prototype-pollution", target, `${callee.join(".")}(${target})`);
}
