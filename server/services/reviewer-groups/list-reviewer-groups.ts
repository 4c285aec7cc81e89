import type { Db } from "@/server/persistence/db";
import { webhookHint } from "./slack-target";

export interface ReviewerGroupView {
  readonly id: string;
  readonly name: string;
  readonly description: string | null;
  readonly notifyEmail: boolean;
  readonly notifySlack: boolean;
  /** A hint of the saved webhook URL (never the URL: it is a secret), or null. */
  readonly slackWebhookHint: string | null;
  readonly slackChannel: string | null;
  readonly members: readonly { readonly userId: string; readonly email: string; readonly role: string; readonly disabled: boolean }[];
  /** Pending escalations offered to the group now. */
  readonly pending: number;
}

/** The reviewer groups with their members, by name. */
export async function listReviewerGroups(db: Db): Promise<ReviewerGroupView[]> {
  const [groups, pending] = await Promise.all([
    db.reviewerGroup.findMany({
      orderBy: { name: "asc" },
      select: {
        id: true, name: true, description: true, notifyEmail: true, notifySlack: true, slackWebhookUrl: true, slackChannel: true,
        members: { orderBy: { user: { email: "asc" } }, select: { user: { select: { id: true, email: true, role: true, disabled: true } } } },
      },
    }),
    db.escalation.groupBy({ by: ["reviewGroup"], where: { status: "pending", reviewGroup: { not: null } }, _count: { _all: true } }),
  ]);
  const pendingOf = new Map(pending.map((row) => [row.reviewGroup, row._count._all]));
  return groups.map(({ slackWebhookUrl, members, ...group }) => ({
    ...group,
    slackWebhookHint: webhookHint(slackWebhookUrl),
    members: members.map(({ user }) => ({ userId: user.id, email: user.email, role: user.role, disabled: user.disabled })),
    pending: pendingOf.get(group.name) ?? 0,
  }));
}

/** The names of the groups `email` is a member of (the review queue's "my groups"). */
export async function groupsOf(db: Db, email: string): Promise<string[]> {
  const rows = await db.reviewerGroupMember.findMany({ where: { user: { email } }, select: { group: { select: { name: true } } } });
  return rows.map((row) => row.group.name).sort();
}
