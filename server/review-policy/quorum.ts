/**
 * Quorum rules (issue 20): how reviewers' votes on one escalation add up to a decision. Pure: the
 * durable store applies them inside the decision's transaction, with the escalation's row locked,
 * and the review page uses the same functions to say where a vote stands and why someone may not
 * approve.
 */
import type { QuorumPolicy } from "./escalation-policy";

/** What a vote says; a decision kind maps onto one (edit and approve is an approval, reject with feedback a rejection). */
export const QUORUM_VOTES = ["approve", "reject"] as const;
export type QuorumVote = (typeof QUORUM_VOTES)[number];

export interface CastVote {
  /** The reviewer's email, as decisions name them. */
  readonly reviewer: string;
  readonly vote: QuorumVote;
}

export interface QuorumTally {
  readonly approvalsNeeded: number;
  readonly rejectionsNeeded: number;
  /** Reviewers who approved / rejected, in the order they voted. */
  readonly approvedBy: readonly string[];
  readonly rejectedBy: readonly string[];
  /** "approved" or "rejected" once a count reaches what the policy needs; "pending" before. */
  readonly outcome: "approved" | "rejected" | "pending";
}

/**
 * Whether decisions on an escalation under `quorum` are votes. The default policy (one approval,
 * one rejection, anyone may approve) is a single decision, recorded as it always was.
 */
export function decidesByVote(quorum: QuorumPolicy): boolean {
  return quorum.approvals > 1 || quorum.rejections > 1 || quorum.excludeRunStarter;
}

/** Emails name one person whatever their case (sign-in lowercases them; a CLI `--as` may not). */
export function sameReviewer(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

export interface VoteRequest {
  readonly quorum: QuorumPolicy;
  readonly reviewer: string;
  readonly vote: QuorumVote;
  /** The decision kind, for the one the quorum cannot take (an edit under several approvals). */
  readonly editsArtifact: boolean;
  /** Who started the escalation's run (Run.startedBy); null when unknown (runs from before it was recorded). */
  readonly runStartedBy: string | null;
  /** Votes already recorded on the escalation. */
  readonly votes: readonly CastVote[];
}

/** Why `request` may not be counted, as a sentence for the reviewer; null when it may. */
export function voteRefusal(request: VoteRequest): string | null {
  const earlier = request.votes.find((cast) => sameReviewer(cast.reviewer, request.reviewer));
  if (earlier) return alreadyVoted(earlier.vote);
  if (request.vote === "approve") {
    const refusal = approvalRefusalUnderQuorum(request.quorum, request.reviewer, request.runStartedBy);
    if (refusal) return refusal;
    // The others would approve an artifact they never saw; an edit is one person's decision.
    if (request.editsArtifact && request.quorum.approvals > 1) {
      return `edit and approve is not possible when ${request.quorum.approvals} reviewers must approve: approve the artifact as it is, or reject with feedback so the next attempt makes the change`;
    }
  }
  return null;
}

/** The refusal of a second vote. */
export function alreadyVoted(earlier: QuorumVote): string {
  return `you already voted (${earlier === "approve" ? "approved" : "rejected"}); each reviewer votes once`;
}

/** Why `reviewer` may not approve under `quorum` whatever they have seen; null when they may. */
export function approvalRefusalUnderQuorum(quorum: QuorumPolicy, reviewer: string, runStartedBy: string | null): string | null {
  if (quorum.excludeRunStarter && runStartedBy !== null && sameReviewer(runStartedBy, reviewer)) {
    return "you started this run, and its review policy needs the approval of someone else";
  }
  return null;
}

/** Where the votes stand under `quorum`: the first count to reach what the policy needs decides. */
export function tallyVotes(quorum: QuorumPolicy, votes: readonly CastVote[]): QuorumTally {
  const approvedBy: string[] = [];
  const rejectedBy: string[] = [];
  let outcome: QuorumTally["outcome"] = "pending";
  for (const cast of votes) {
    if (outcome !== "pending") break;
    // A reviewer counts once (the store refuses a second vote; this keeps the tally honest regardless).
    if ([...approvedBy, ...rejectedBy].some((reviewer) => sameReviewer(reviewer, cast.reviewer))) continue;
    if (cast.vote === "approve") approvedBy.push(cast.reviewer);
    else rejectedBy.push(cast.reviewer);
    if (approvedBy.length >= quorum.approvals) outcome = "approved";
    else if (rejectedBy.length >= quorum.rejections) outcome = "rejected";
  }
  return { approvalsNeeded: quorum.approvals, rejectionsNeeded: quorum.rejections, approvedBy, rejectedBy, outcome };
}

/** "1 of 2 approvals (alice@example.com)", and the rejections when the policy needs more than one. */
export function describeTally(tally: QuorumTally): string {
  const approvals = `${tally.approvedBy.length} of ${tally.approvalsNeeded} approvals${tally.approvedBy.length > 0 ? ` (${tally.approvedBy.join(", ")})` : ""}`;
  if (tally.rejectedBy.length === 0 && tally.rejectionsNeeded === 1) return approvals;
  const rejections = `${tally.rejectedBy.length} of ${tally.rejectionsNeeded} rejections${tally.rejectedBy.length > 0 ? ` (${tally.rejectedBy.join(", ")})` : ""}`;
  return `${approvals}; ${rejections}`;
}
