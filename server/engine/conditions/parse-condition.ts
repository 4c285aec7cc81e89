import { syntaxError, type ComparisonOperator, type ConditionNode, type ConditionSyntaxError } from "./condition-node";
import { tokenize, type Token } from "./tokenize";

/** Limits so hostile input fails fast with a message instead of exhausting time or the stack. */
export const MAX_CONDITION_LENGTH = 2000;
export const MAX_CONDITION_DEPTH = 64;

export type ParseConditionResult =
  | { readonly ok: true; readonly expression: ConditionNode; readonly names: readonly string[] }
  | ConditionSyntaxError;

const COMPARISONS = new Set<string>(["==", "!=", "<", "<=", ">", ">="]);
/** Only keyword and operator tokens can have these texts (names cannot be keywords). */
const LOGICAL = { and: ["and", "&&"], or: ["or", "||"] } as const satisfies Record<"and" | "or", readonly string[]>;

/** Carries a syntax error out of the recursion; never escapes parseCondition. */
class Failure {
  constructor(readonly error: ConditionSyntaxError) {}
}

/**
 * Grammar (lowest precedence first), by recursive descent:
 *   or      := and (("or" | "||") and)*
 *   and     := unary (("and" | "&&") unary)*
 *   unary   := ("not" | "!") notArg | compare
 *   notArg  := ("not" | "!") notArg | primary      (a comparison may not follow; see parseNot)
 *   compare := primary (COMPARISON primary)?        (chaining is an error)
 *   primary := NAME | NUMBER | "-" NUMBER | STRING | "true" | "false" | "(" or ")"
 */
export function parseCondition(source: string): ParseConditionResult {
  if (source.length > MAX_CONDITION_LENGTH) return syntaxError(`condition is longer than ${MAX_CONDITION_LENGTH} characters`, MAX_CONDITION_LENGTH + 1);
  const tokenized = tokenize(source);
  if (!tokenized.ok) return tokenized;
  if (tokenized.tokens.length === 1) return { ok: false, message: "empty condition", column: 1 };
  const parser = new Parser(tokenized.tokens);
  try {
    return { ok: true, expression: parser.parseAll(), names: [...parser.names] };
  } catch (caught) {
    if (caught instanceof Failure) return caught.error;
    throw caught;
  }
}

class Parser {
  private index = 0;
  private depth = 0;
  readonly names = new Set<string>();

  constructor(private readonly tokens: readonly Token[]) {}

  parseAll(): ConditionNode {
    const expression = this.parseOr();
    const rest = this.peek();
    if (rest.type !== "end") this.fail(`unexpected ${describe(rest)}`, rest.column);
    return expression;
  }

  private parseOr(): ConditionNode {
    return this.parseLogical("or", () => this.parseAnd());
  }

  private parseAnd(): ConditionNode {
    return this.parseLogical("and", () => this.parseUnary());
  }

  /** Flattens `(a and b) and c` into one n-ary node: same meaning and order, shallower tree. */
  private parseLogical(kind: "and" | "or", operand: () => ConditionNode): ConditionNode {
    const operands: ConditionNode[] = [];
    const add = (node: ConditionNode) => (node.kind === kind ? operands.push(...node.operands) : operands.push(node));
    add(operand());
    while ((LOGICAL[kind] as readonly string[]).includes(this.peek().text)) {
      this.advance();
      add(operand());
    }
    return operands.length === 1 ? (operands[0] as ConditionNode) : { kind, operands };
  }

  private parseUnary(): ConditionNode {
    return isNot(this.peek()) ? this.parseNot() : this.parseCompare();
  }

  /**
   * `not` takes a primary, so it binds tighter than a comparison, as in C. Python reads
   * `not a == b` the other way, so a comparison right after a `not` operand is rejected: the
   * author must write `not (a == b)` or `(not a) == b` and no one misreads the condition.
   */
  private parseNot(): ConditionNode {
    const token = this.advance();
    const operand = this.nested(token, () => (isNot(this.peek()) ? this.parseNot() : this.parsePrimary()));
    if (isComparison(this.peek())) this.fail(`"${token.text}" before a comparison is ambiguous: add parentheses`, token.column);
    return { kind: "not", operand };
  }

  private parseCompare(): ConditionNode {
    const left = this.parsePrimary();
    if (!isComparison(this.peek())) return left;
    const operator = this.advance().text as ComparisonOperator;
    const next = this.peek();
    if (isNot(next)) this.fail(`"${next.text}" after a comparison needs parentheses`, next.column);
    const right = this.parsePrimary();
    const chained = this.peek();
    if (isComparison(chained)) this.fail("comparisons cannot be chained", chained.column);
    return { kind: "compare", operator, left, right };
  }

  private parsePrimary(): ConditionNode {
    const token = this.peek();
    switch (token.type) {
      case "name":
        this.advance();
        this.names.add(token.text);
        return { kind: "name", name: token.text };
      case "number":
      case "string":
        this.advance();
        return { kind: "literal", value: token.value };
      case "keyword":
        if (token.text !== "true" && token.text !== "false") break;
        this.advance();
        return { kind: "literal", value: token.text === "true" };
      case "operator":
        if (token.text === "-") return this.parseNegative();
        break;
      case "(":
        return this.parseGroup();
    }
    return this.failExpected(token);
  }

  /** Unary minus exists only to write negative number literals; `-x` is not arithmetic. */
  private parseNegative(): ConditionNode {
    const minus = this.advance();
    const number = this.peek();
    if (number.type !== "number") this.fail('"-" must be followed by a number', minus.column);
    this.advance();
    // `|| 0` turns -0 into 0, so `-0` and `0` give equal trees and format the same.
    return { kind: "literal", value: -number.value || 0 };
  }

  private parseGroup(): ConditionNode {
    const open = this.advance();
    const inner = this.nested(open, () => this.parseOr());
    const close = this.peek();
    if (close.type === ")") {
      this.advance();
      return inner;
    }
    if (close.type === "end") this.fail('unclosed "("', open.column);
    return this.fail(`unexpected ${describe(close)}`, close.column);
  }

  private nested(token: Token, parse: () => ConditionNode): ConditionNode {
    if (++this.depth > MAX_CONDITION_DEPTH) this.fail(`condition is nested more than ${MAX_CONDITION_DEPTH} levels deep`, token.column);
    const node = parse();
    this.depth--;
    return node;
  }

  private failExpected(token: Token): never {
    const previous = this.tokens[this.index - 1];
    if (previous) this.fail(`expected an expression after "${previous.text}"`, token.column);
    return this.fail(`unexpected ${describe(token)}`, token.column);
  }

  private peek(): Token {
    return this.tokens[this.index] as Token;
  }

  private advance(): Token {
    const token = this.peek();
    if (token.type !== "end") this.index++;
    return token;
  }

  private fail(problem: string, column: number): never {
    throw new Failure(syntaxError(problem, column));
  }
}

const isNot = (token: Token) => token.text === "!" || (token.type === "keyword" && token.text === "not");
const isComparison = (token: Token) => token.type === "operator" && COMPARISONS.has(token.text);

function describe(token: Token): string {
  if (token.type === "end") return "end of condition";
  const text = token.text.length > 24 ? `${token.text.slice(0, 24)}…` : token.text;
  return JSON.stringify(text);
}
