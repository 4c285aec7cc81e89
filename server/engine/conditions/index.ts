/**
 * The condition language of workflow transitions and run_if: names (declared variables, guard
 * ids), literals, comparisons, and/or/not. Parsed by hand and interpreted; never eval'd.
 */
export { parseCondition, MAX_CONDITION_LENGTH, MAX_CONDITION_DEPTH, type ParseConditionResult } from "./parse-condition";
export { evaluateCondition, type ConditionScope, type ConditionLookup } from "./evaluate-condition";
export { formatCondition } from "./format-condition";
export { ConditionError, isConditionError } from "./condition-error";
export type { ConditionNode, ConditionValue, ComparisonOperator, ConditionSyntaxError } from "./condition-node";
