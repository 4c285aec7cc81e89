import { decisionKeyKind } from "@/server/durable/decision";
import { budgetReviewOf, type BudgetReview } from "../usage/budget-review";
import type { Db } from "@/server/persistence/db";
import { notFound } from "../errors";
import { canDecide, type Decider } from "./decision-kinds";
import { groupRefusal } from "./group-rule";
import { lineDiff, type DiffLine } from "./diff-lines";
import { offendingLine } from "./offending-line";
import { quorumViewOf, type QuorumView } from "./quorum-view";
import { recordEscalationView } from "./record-view";
import { reachOf, REACH_SELECT, type EscalationReach } from "./escalation-reach";

export interface ReviewArtifact {
  id: string;
  attempt: number;
  content: string;
  contentHash: string;
  language: string | null;
  passed: boolean;
  fatal: boolean;
  feedback: string;
  parentId: string | null;
  createdAt: Date;
}

/** What a guard escalation's reviewer decides on: an attempt, its history and the machine around it. */
export interface GuardEscalationReview extends EscalationReviewCommon {
  kind: "guard";
  artifact: ReviewArtifact;
  offendingLine: number | null;
  /** The prompt the generator sent (or, replaying a cassette, composed) for this attempt, when it recorded one. */
  prompt: string | null;
  earlierAttempts: (ReviewArtifact & { diff: DiffLine[] })[];
  dependencies: { name: string; stepName: string; artifact: ReviewArtifact }[];
  /** Line comments submitted with the decision (none while pending: a reviewer's drafts stay in their browser). */
  comments: SubmittedLineComment[];
  stateMachine: { states: string[]; initialState: string; finalStates: string[]; transitions: { from: string; to: string; condition: string }[] } | null;
}

export interface SubmittedLineComment {
  id: string;
  author: string;
  line: number;
  endLine: number | null;
  body: string;
  suggestion: string | null;
  decision: string | null;
  createdAt: Date;
}

/** A budget escalation: what the run spent against its budget; the reviewer grants more or refuses. */
export interface BudgetEscalationReview extends EscalationReviewCommon {
  kind: "budget";
  budget: BudgetReview;
}

export type EscalationReview = GuardEscalationReview | BudgetEscalationReview;

interface EscalationReviewCommon {
  escalation: {
    id: string;
    status: string;
    stepName: string;
    guardId: string;
    feedback: string;
    createdAt: Date;
    expiresAt: Date | null;
    claimedBy: string | null;
    claimedAt: Date | null;
    decision: string | null;
    decidedBy: string | null;
    decidedAt: Date | null;
    comment: string | null;
    /** Edits need a guard run after the decision; a step that spent its budget takes none. */
    editAllowed: boolean;
    /** Who it is offered to (and from whom it was handed off), and what its deadline does. */
    reach: EscalationReach;
  };
  /** The run's token and cost totals so far (server/usage). */
  run: { id: string; status: string; specification: string; currentState: string | null; workflow: string | null; promptTokens: number; completionTokens: number; costUsd: number };
  /** Whether the caller may decide: a reviewer or admin, on a pending escalation. Computed here, enforced by the decide procedure. */
  canDecide: boolean;
  /** Why a reviewer who may decide escalations may not decide this one (it is offered to a group they are not in); null otherwise. */
  decideRefusal: string | null;
  /** Under a quorum policy: the votes so far and why the caller may not approve; null for a single decision. */
  quorum: QuorumView | null;
}

/** A pending escalation holds fewer votes than its policy's two counts (each at most 10). */
const MAX_VOTES_SHOWN = 50;

const artifactSelect = { id: true, attempt: true, content: true, contentHash: true, language: true, passed: true, fatal: true, feedback: true, parentId: true, createdAt: true } as const;

/** Everything a reviewer needs on one screen to decide an escalation. */
export async function getEscalation(db: Db, viewer: Decider | null, input: { id: string }): Promise<EscalationReview> {
  const escalation = await db.escalation.findUnique({
    where: { id: input.id },
    select: {
      id: true, status: true, stepName: true, guardId: true, feedback: true, createdAt: true, expiresAt: true, claimedBy: true, claimedAt: true,
      decision: true, decidedBy: true, decidedAt: true, comment: true, decisionKey: true, kind: true, ...REACH_SELECT,
      artifact: { select: artifactSelect },
      reviewComments: { orderBy: [{ line: "asc" }, { createdAt: "asc" }], take: 1_000, select: { id: true, author: true, line: true, endLine: true, body: true, suggestion: true, decision: true, createdAt: true } },
      approvals: { select: { reviewer: true, vote: true, comment: true, createdAt: true }, orderBy: [{ createdAt: "asc" }, { reviewer: "asc" }], take: MAX_VOTES_SHOWN },
      run: { select: { id: true, startedBy: true, status: true, specification: true, currentState: true, promptTokens: true, completionTokens: true, costUsd: true, budget: true, workflowVersion: { select: { definition: true, workflow: { select: { name: true } } } } } },
    },
  });
  if (!escalation) throw notFound("Escalation", input.id);
  const { artifact, run, decisionKey, kind, reviewComments, reviewGroup: _group, handedOffAt: _handedOffAt, policy, approvals, ...rest } = escalation;
  const fields = { ...rest, reach: (await reachOf(db, [escalation])).get(escalation.id)! };
  const quorum = quorumViewOf(policy, approvals, run.startedBy, viewer?.email ?? null);
  const byRole = escalation.status === "pending" && canDecide(viewer?.role);
  const decideRefusal = byRole && viewer ? await groupRefusal(db, escalation.reviewGroup, viewer) : null;
  const mayDecide = byRole && decideRefusal === null;
  const runView = { id: run.id, status: run.status, specification: run.specification, currentState: run.currentState, workflow: run.workflowVersion?.workflow.name ?? null, promptTokens: run.promptTokens, completionTokens: run.completionTokens, costUsd: run.costUsd };
  if (kind === "budget" || !artifact) {
    return { kind: "budget", escalation: { ...fields, editAllowed: false }, run: runView, budget: budgetReviewOf(run.budget, run), canDecide: mayDecide, decideRefusal, quorum: null };
  }
  // This answer carries the artifact: from now on the reviewer has seen its code (seen-code-rule.ts).
  if (mayDecide && viewer) await recordEscalationView(db, escalation.id, viewer.email);

  const [stepArtifacts, dependencyRows, generated] = await Promise.all([
    db.artifact.findMany({ where: { runId: run.id, stepName: escalation.stepName, createdAt: { lte: artifact.createdAt }, NOT: { id: artifact.id } }, orderBy: [{ createdAt: "asc" }, { attempt: "asc" }], select: artifactSelect }),
    db.artifactDependency.findMany({ where: { artifactId: artifact.id }, select: { name: true, dependency: { select: { ...artifactSelect, stepName: true } } } }),
    db.ledgerEntry.findMany({ where: { runId: run.id, type: "generator.completed" }, select: { payload: true } }),
  ]);
  const prompt = promptOf(generated.map((entry) => entry.payload), artifact.id, artifact.parentId);
  const definition = run.workflowVersion?.definition as { state_machine?: { states: string[]; initial_state: string; final_states: string[]; transitions: { from: string; to: string; condition: string }[] } } | undefined;
  const machine = definition?.state_machine;
  return {
    kind: "guard",
    escalation: { ...fields, editAllowed: decisionKeyKind(decisionKey) !== "exhausted" },
    run: runView,
    artifact,
    offendingLine: offendingLine(escalation.feedback, artifact.content),
    prompt,
    earlierAttempts: stepArtifacts.map((earlier) => ({ ...earlier, diff: lineDiff(earlier.content, artifact.content) })),
    comments: reviewComments,
    dependencies: dependencyRows.map(({ name, dependency: { stepName, ...dependency } }) => ({ name, stepName, artifact: dependency })),
    stateMachine: machine
      ? { states: machine.states, initialState: machine.initial_state, finalStates: machine.final_states, transitions: machine.transitions.map((transition) => ({ from: transition.from, to: transition.to, condition: String(transition.condition) })) }
      : null,
    canDecide: mayDecide,
    decideRefusal,
    quorum,
  };
}

/** The prompt recorded with the generation of `artifactId` (or, for a reviewer's edit, of the artifact it replaced). */
function promptOf(payloads: unknown[], artifactId: string, parentId: string | null): string | null {
  for (const id of [artifactId, parentId]) {
    for (const payload of payloads) {
      const entry = payload as { artifactId?: unknown; metadata?: { prompt?: unknown } } | null;
      if (entry?.artifactId === id && typeof entry.metadata?.prompt === "string") return entry.metadata.prompt;
    }
  }
  return null;
}
