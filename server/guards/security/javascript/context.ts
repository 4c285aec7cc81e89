import type ts from "typescript";
import type { AllowPolicy } from "../allow-policy";
import type { SecurityRule } from "../finding";
import type { Resolver } from "./resolver";

export interface RuleContext {
  readonly sourceFile: ts.SourceFile;
  readonly resolver: Resolver;
  readonly allow: AllowPolicy;
  /**
   * Records a finding at the node unless allowCalls covers `key`. `construct` is what the feedback
   * shows (defaults to the key).
   */
  report(node: ts.Node, rule: SecurityRule, key: string, construct?: string): void;
}

/** A rule looks at one node of the walk and reports what it finds there. */
export type Rule = (node: ts.Node, context: RuleContext) => void;
