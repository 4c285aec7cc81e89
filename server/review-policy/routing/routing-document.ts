import type { GuardKind } from "@/server/engine/domain/catalogue";
import type { EscalationPolicy } from "../escalation-policy";

/**
 * A parsed, validated routing document: rules tried in order (the first that matches wins) and the
 * policy of escalations no rule matches. Each rule's policy is already complete: a field the rule
 * leaves out is the default's, and a field the default leaves out is DEFAULT_ESCALATION_POLICY's.
 */
export interface RoutingDocument {
  readonly rules: readonly RoutingRule[];
  readonly defaultPolicy: EscalationPolicy;
}

export interface RoutingRule {
  readonly name: string;
  readonly match: RoutingMatch;
  /** The policy an escalation matching this rule gets (its `rule` is the rule's name). */
  readonly policy: EscalationPolicy;
}

/** What a rule matches; an absent condition matches anything, every present one must hold. */
export interface RoutingMatch {
  /** Workflow names (any of them). */
  readonly workflows?: readonly string[];
  /** Step names (any of them). */
  readonly steps?: readonly string[];
  /** Guard kinds: the escalated step has a guard (or a member of a composite guard) of one of these kinds. */
  readonly guards?: readonly GuardKind[];
  /** A regular expression (RE2 syntax) searched for in the start of the escalation's feedback. */
  readonly feedback?: FeedbackPattern;
}

export interface FeedbackPattern {
  readonly source: string;
  /** RE2 instructions it compiled to: what a search costs per character, roughly. */
  readonly programSize: number;
  test(feedback: string): boolean;
}

/** What routing knows of one escalation. */
export interface EscalationFacts {
  readonly workflow: string | null;
  readonly step: string;
  /** Kinds of the escalated step's guards (composites' members included); empty when unknown. */
  readonly guardKinds: readonly string[];
  readonly feedback: string;
}

/** Bounds on what a document may ask for; everything a user writes is counted before it costs anything. */
export const ROUTING_LIMITS = Object.freeze({
  maxDocumentBytes: 64 * 1024,
  maxRules: 200,
  maxRuleNameLength: 100,
  /** Names a match condition may list (workflows, steps or guard kinds). */
  maxMatchValues: 50,
  maxPatternLength: 500,
  /**
   * RE2 instructions one pattern compiles to, and all of a document's together. Matching is linear
   * in the feedback, but each instruction can be a thread at every character: `[a-y]{1,1000}[0-9]`
   * (2,002 instructions) takes about a third of a second on 10,000 characters, and the routing pass
   * and dry run try every rule on every escalation. Plain patterns take tens.
   */
  maxPatternProgram: 1_000,
  maxPatternsProgram: 20_000,
  /** Only this much of an escalation's feedback is searched: a pattern's cost stays bounded whatever the guard wrote. */
  feedbackPrefix: 10_000,
  maxCommentLength: 500,
});

/** The rule name stored on escalations that no rule matched. */
export const DEFAULT_RULE_NAME = "default";
