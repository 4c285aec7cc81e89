import { ConditionError } from "./condition-error";
import type { ComparisonOperator, ConditionNode, ConditionValue } from "./condition-node";

/** Looks a name up in the run context: declared variables, and guard ids as booleans. */
export type ConditionLookup = (name: string) => ConditionValue | undefined;
export type ConditionScope = ConditionLookup | Readonly<Record<string, ConditionValue | undefined>>;

/**
 * Evaluates a parsed condition to a boolean. Names are truthy-tested when used alone or under
 * and/or/not: booleans as they are, numbers when not 0 (or NaN), strings when not empty.
 * `==`/`!=` never coerce: values of different types are unequal. `<`, `<=`, `>`, `>=` need two
 * numbers or two strings (strings compare by UTF-16 code units). and/or short-circuit, so a name
 * on the unevaluated side is never looked up. Throws ConditionError for an unknown name, a value
 * that is not a boolean, number or string, or an ordering between different types.
 */
export function evaluateCondition(expression: ConditionNode, scope: ConditionScope): boolean {
  const lookup = typeof scope === "function" ? scope : ownProperty(scope);
  return truthy(valueOf(expression, lookup));
}

/** Own properties only: a scope record never answers with something from its prototype chain. */
function ownProperty(record: Readonly<Record<string, ConditionValue | undefined>>): ConditionLookup {
  return (name) => (Object.hasOwn(record, name) ? record[name] : undefined);
}

function valueOf(node: ConditionNode, lookup: ConditionLookup): ConditionValue {
  switch (node.kind) {
    case "literal":
      return node.value;
    case "name":
      return lookupName(node.name, lookup);
    case "not":
      return !truthy(valueOf(node.operand, lookup));
    case "and":
      return node.operands.every((operand) => truthy(valueOf(operand, lookup)));
    case "or":
      return node.operands.some((operand) => truthy(valueOf(operand, lookup)));
    case "compare":
      return compare(node.operator, valueOf(node.left, lookup), valueOf(node.right, lookup));
  }
}

function lookupName(name: string, lookup: ConditionLookup): ConditionValue {
  const value: unknown = lookup(name);
  if (value === undefined) throw new ConditionError(`unknown name "${name}" in condition`);
  // Checked at run time: scopes are built from workflow context, which may hold null or objects.
  if (typeof value !== "boolean" && typeof value !== "number" && typeof value !== "string") {
    throw new ConditionError(`"${name}" is ${value === null ? "null" : `a ${typeof value}`}; conditions use booleans, numbers and strings`);
  }
  return value;
}

function truthy(value: ConditionValue): boolean {
  if (typeof value === "number") return value !== 0 && !Number.isNaN(value);
  return typeof value === "string" ? value.length > 0 : value;
}

function compare(operator: ComparisonOperator, left: ConditionValue, right: ConditionValue): boolean {
  if (operator === "==") return left === right;
  if (operator === "!=") return left !== right;
  if (typeof left !== typeof right || typeof left === "boolean") {
    throw new ConditionError(`cannot compare ${typeof left} with ${typeof right}`);
  }
  switch (operator) {
    case "<":
      return left < right;
    case "<=":
      return left <= right;
    case ">":
      return left > right;
    case ">=":
      return left >= right;
  }
}
