import { escalationPolicyOf } from "@/server/review-policy/escalation-policy";
import { alreadyVoted, approvalRefusalUnderQuorum, decidesByVote, describeTally, sameReviewer, tallyVotes, type QuorumVote } from "@/server/review-policy/quorum";

/** The vote rows the review page and queue read (bounded by the query that loads them). */
export interface StoredVote {
  readonly reviewer: string;
  readonly vote: string;
  readonly comment?: string | null;
  readonly createdAt: Date;
}

/** Where an escalation's quorum stands, for the person looking at it. */
export interface QuorumView {
  /** "1 of 2 approvals (alice@…)". */
  readonly summary: string;
  readonly approvalsNeeded: number;
  readonly rejectionsNeeded: number;
  readonly excludeRunStarter: boolean;
  readonly votes: readonly { readonly reviewer: string; readonly vote: QuorumVote; readonly comment: string | null; readonly createdAt: Date }[];
  /** The viewer's own vote, if they cast one. */
  readonly yourVote: QuorumVote | null;
  /** Why the viewer may not approve (started the run, voted already); null when they may. */
  readonly approvalRefusal: string | null;
  /** Why the viewer may not vote at all (voted already); null when they may. */
  readonly voteRefusal: string | null;
}

/**
 * The quorum part of an escalation's review: null when its policy takes a single decision (no
 * votes to show). Uses the rules the store applies (server/review-policy/quorum.ts), so what the
 * page says is what a decision would meet.
 */
export function quorumViewOf(storedPolicy: unknown, storedVotes: readonly StoredVote[], runStartedBy: string | null, viewer: string | null): QuorumView | null {
  const { quorum } = escalationPolicyOf(storedPolicy);
  if (!decidesByVote(quorum)) return null;
  const votes = storedVotes.map((row) => ({ reviewer: row.reviewer, vote: (row.vote === "approve" ? "approve" : "reject") as QuorumVote, comment: row.comment ?? null, createdAt: row.createdAt }));
  const yours = viewer === null ? undefined : votes.find((cast) => sameReviewer(cast.reviewer, viewer));
  const voteRefusal = yours ? alreadyVoted(yours.vote) : null;
  return {
    summary: describeTally(tallyVotes(quorum, votes)),
    approvalsNeeded: quorum.approvals,
    rejectionsNeeded: quorum.rejections,
    excludeRunStarter: quorum.excludeRunStarter,
    votes,
    yourVote: yours?.vote ?? null,
    approvalRefusal: voteRefusal ?? (viewer === null ? null : approvalRefusalUnderQuorum(quorum, viewer, runStartedBy)),
    voteRefusal,
  };
}
