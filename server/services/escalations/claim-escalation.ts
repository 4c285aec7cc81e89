import type { Db } from "@/server/persistence/db";
import { conflict, invalidInput, notFound } from "../errors";
import { canDecide, DECIDING_ROLES, type Decider } from "./decision-kinds";
import { groupRefusal } from "./group-rule";
import { routeBeforeDeciding } from "./route-before-deciding";

export interface ClaimOutcome {
  readonly escalationId: string;
  readonly claimedBy: string | null;
  readonly claimedAt: Date | null;
}

/**
 * Takes an escalation in the queue so other reviewers see who has it. A claim never blocks a
 * decision (anyone with the role may still decide); it only says who is on it. Claiming an item
 * someone else holds is refused unless `steal` is set. Refused to whom the group rule refuses the
 * decision (group-rule.ts): their claim would only keep the backup group from being offered it.
 */
export async function claimEscalation(db: Db, decider: Decider, input: { escalationId: string; steal?: boolean }, now = new Date()): Promise<ClaimOutcome> {
  const notYours = await groupRefusal(db, await groupOf(db, input.escalationId), decider);
  if (notYours) throw conflict(`Escalation ${input.escalationId}: ${notYours}.`);
  return setHolder(db, input.escalationId, decider.email, input.steal ?? false, now);
}

/** Hands an escalation to a reviewer or admin who can decide it (or releases it with assignee null). */
export async function assignEscalation(db: Db, input: { escalationId: string; assignee: string | null }, now = new Date()): Promise<ClaimOutcome> {
  const assignee = input.assignee?.trim() || null;
  if (assignee !== null) {
    if (!/^\S+@\S+$/.test(assignee)) throw invalidInput("assignee", `"${assignee}" is not an email address`);
    const user = await db.user.findUnique({ where: { email: assignee }, select: { role: true, disabled: true } });
    if (!user) throw invalidInput("assignee", `no user has the email ${assignee}`);
    if (user.disabled) throw invalidInput("assignee", `${assignee} is disabled`);
    if (!canDecide(user.role)) throw invalidInput("assignee", `${assignee} is a ${user.role} and cannot decide escalations; assign a reviewer or admin`);
    const group = await groupOf(db, input.escalationId);
    if (await groupRefusal(db, group, { email: assignee, role: user.role })) throw invalidInput("assignee", `${assignee} is not in the group ${group}, to which it is offered; assign one of its members or an admin`);
  }
  return setHolder(db, input.escalationId, assignee, true, now);
}

/** The people an escalation can be assigned to: enabled reviewers and admins, by email. */
export async function listAssignableReviewers(db: Db): Promise<string[]> {
  const users = await db.user.findMany({ where: { disabled: false, role: { in: [...DECIDING_ROLES] } }, select: { email: true }, orderBy: { email: "asc" } });
  return users.map((user) => user.email);
}

/** The group the escalation is offered to, routing it first when the routing pass has not yet. */
async function groupOf(db: Db, escalationId: string): Promise<string | null> {
  const escalation = await db.escalation.findUnique({ where: { id: escalationId }, select: { status: true, routedAt: true, reviewGroup: true } });
  if (!escalation) throw notFound("Escalation", escalationId);
  return escalation.routedAt === null && escalation.status === "pending" ? routeBeforeDeciding(db, escalationId) : escalation.reviewGroup;
}

async function setHolder(db: Db, escalationId: string, holder: string | null, steal: boolean, now: Date): Promise<ClaimOutcome> {
  const escalation = await db.escalation.findUnique({ where: { id: escalationId }, select: { status: true, claimedBy: true } });
  if (!escalation) throw notFound("Escalation", escalationId);
  if (escalation.status !== "pending") throw conflict(`Escalation ${escalationId} is ${escalation.status}; only pending escalations can be claimed or assigned`);
  const claimedAt = holder ? now : null;
  // Compare-and-swap on the current holder: two reviewers claiming at once, one gets it.
  const changed = await db.escalation.updateMany({
    where: { id: escalationId, status: "pending", ...(steal ? {} : { OR: [{ claimedBy: null }, { claimedBy: holder }] }) },
    data: { claimedBy: holder, claimedAt },
  });
  if (changed.count !== 1) {
    const current = await db.escalation.findUniqueOrThrow({ where: { id: escalationId }, select: { claimedBy: true, status: true } });
    throw conflict(current.status !== "pending" ? `Escalation ${escalationId} is ${current.status}` : `${current.claimedBy} already has escalation ${escalationId}`);
  }
  return { escalationId, claimedBy: holder, claimedAt };
}
