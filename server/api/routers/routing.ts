import { addGroupMember } from "@/server/services/reviewer-groups/add-group-member";
import { createReviewerGroup } from "@/server/services/reviewer-groups/create-reviewer-group";
import { deleteReviewerGroup } from "@/server/services/reviewer-groups/delete-reviewer-group";
import { groupsOf, listReviewerGroups } from "@/server/services/reviewer-groups/list-reviewer-groups";
import { removeGroupMember } from "@/server/services/reviewer-groups/remove-group-member";
import { renameReviewerGroup } from "@/server/services/reviewer-groups/rename-reviewer-group";
import { setGroupChannels } from "@/server/services/reviewer-groups/set-group-channels";
import { dryRunRouting } from "@/server/services/routing/dry-run-routing";
import { getRoutingVersion, listRoutingVersions } from "@/server/services/routing/list-routing-versions";
import { saveRoutingVersion } from "@/server/services/routing/save-routing-version";
import { validateRouting } from "@/server/services/routing/validate-routing";
import { addMemberInput, createGroupInput, dryRunInput, groupChannelsInput, groupIdInput, removeMemberInput, renameGroupInput, routingSourceInput, routingVersionInput, saveRoutingInput } from "../schemas/routing";
import { createTRPCRouter, permittedProcedure, viewerProcedure } from "../trpc";

const groups = permittedProcedure("manage_groups");
const routing = permittedProcedure("edit_routing");

/** Reviewer groups (Admin → Groups): admins only, except asking which groups you are in. */
export const groupsRouter = createTRPCRouter({
  list: groups.query(({ ctx }) => listReviewerGroups(ctx.db)),
  mine: viewerProcedure.query(({ ctx }) => groupsOf(ctx.db, ctx.actor.email)),
  create: groups.input(createGroupInput).mutation(({ ctx, input }) => createReviewerGroup(ctx.db, input, ctx.actor)),
  rename: groups.input(renameGroupInput).mutation(({ ctx, input }) => renameReviewerGroup(ctx.db, input, ctx.actor)),
  delete: groups.input(groupIdInput).mutation(({ ctx, input }) => deleteReviewerGroup(ctx.db, input.groupId, ctx.actor)),
  addMember: groups.input(addMemberInput).mutation(({ ctx, input }) => addGroupMember(ctx.db, input, ctx.actor)),
  removeMember: groups.input(removeMemberInput).mutation(({ ctx, input }) => removeGroupMember(ctx.db, input, ctx.actor)),
  setChannels: groups.input(groupChannelsInput).mutation(({ ctx, input }) => setGroupChannels(ctx.db, input, ctx.actor)),
});

/** The routing document (Admin → Routing): admins only. */
export const routingRouter = createTRPCRouter({
  current: routing.input(routingVersionInput).query(({ ctx, input }) => getRoutingVersion(ctx.db, input?.version)),
  versions: routing.query(({ ctx }) => listRoutingVersions(ctx.db)),
  validate: routing.input(routingSourceInput).mutation(({ ctx, input }) => validateRouting(ctx.db, input.source)),
  dryRun: routing.input(dryRunInput).mutation(({ ctx, input }) => dryRunRouting(ctx.db, input.source, input.count)),
  save: routing.input(saveRoutingInput).mutation(({ ctx, input }) => saveRoutingVersion(ctx.db, input, ctx.actor)),
});
