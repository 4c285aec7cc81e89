/**
 * The syntax tree of a condition. Nodes carry no source positions, so two sources that mean the
 * same thing (`(a and b) and c`, `a && b && c`) give equal trees and formatting round-trips.
 */
export type ConditionValue = boolean | number | string;

export type ComparisonOperator = "==" | "!=" | "<" | "<=" | ">" | ">=";

export type ConditionNode =
  | { readonly kind: "literal"; readonly value: ConditionValue }
  | { readonly kind: "name"; readonly name: string }
  | { readonly kind: "not"; readonly operand: ConditionNode }
  /** n-ary and flat: an `and` never holds an `and` operand (likewise `or`), which keeps trees shallow. */
  | { readonly kind: "and" | "or"; readonly operands: readonly ConditionNode[] }
  | { readonly kind: "compare"; readonly operator: ComparisonOperator; readonly left: ConditionNode; readonly right: ConditionNode };

/** A parse failure: `message` ends with "at column N" (except `empty condition`); `column` is 1-based. */
export interface ConditionSyntaxError {
  readonly ok: false;
  readonly message: string;
  readonly column: number;
}

export function syntaxError(problem: string, column: number): ConditionSyntaxError {
  return { ok: false, message: `${problem} at column ${column}`, column };
}
