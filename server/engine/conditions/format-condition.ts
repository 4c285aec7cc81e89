import type { ConditionNode, ConditionValue } from "./condition-node";

/**
 * Canonical text of a condition: `and`/`or`/`not` spelled as words, strings in double quotes,
 * numbers without exponents, single spaces, and only the parentheses the grammar needs.
 * parseCondition(formatCondition(e)) gives back e for every tree parseCondition produces.
 */
export function formatCondition(expression: ConditionNode): string {
  switch (expression.kind) {
    case "literal":
      return formatValue(expression.value);
    case "name":
      return expression.name;
    case "not":
      return `not ${wrapUnless(expression.operand, ["literal", "name", "not"])}`;
    case "and":
      return expression.operands.map((operand) => wrapUnless(operand, ["literal", "name", "not", "compare"])).join(" and ");
    case "or":
      return expression.operands.map((operand) => wrapUnless(operand, ["literal", "name", "not", "compare", "and"])).join(" or ");
    case "compare":
      // Operands other than a name or literal need parentheses: `(not a) == b`, `(a == b) == c`.
      return `${wrapUnless(expression.left, ["literal", "name"])} ${expression.operator} ${wrapUnless(expression.right, ["literal", "name"])}`;
  }
}

function wrapUnless(node: ConditionNode, bare: readonly ConditionNode["kind"][]): string {
  const text = formatCondition(node);
  return bare.includes(node.kind) ? text : `(${text})`;
}

function formatValue(value: ConditionValue): string {
  if (typeof value === "string") return `"${value.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;
  return typeof value === "number" ? plainNumber(value) : String(value);
}

/** The grammar has no exponents, so 1e21 and 1e-7 are written out in full. */
function plainNumber(value: number): string {
  const text = String(value);
  const exponentAt = text.indexOf("e");
  if (exponentAt < 0) return text;
  const sign = value < 0 ? "-" : "";
  const mantissa = text.slice(sign.length, exponentAt);
  const exponent = Number(text.slice(exponentAt + 1));
  const digits = mantissa.replace(".", "");
  const point = (mantissa.includes(".") ? mantissa.indexOf(".") : mantissa.length) + exponent;
  if (point <= 0) return `${sign}0.${"0".repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${"0".repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}
