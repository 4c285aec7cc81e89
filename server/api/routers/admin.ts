import { listAuditEvents } from "@/server/services/audit/list-audit-events";
import { createApiToken, listApiTokens, revokeApiToken } from "@/server/services/api-tokens/api-tokens";
import { createUser } from "@/server/services/users/create-user";
import { listUsers, updateUser } from "@/server/services/users/manage-users";
import { createTokenInput, createUserInput, listAuditInput, revokeTokenInput, updateUserInput } from "../schemas/admin";
import { adminProcedure, createTRPCRouter, publicProcedure } from "../trpc";

/** Users, personal API tokens and the audit log: admins only. */
export const adminRouter = createTRPCRouter({
  users: adminProcedure.query(({ ctx }) => listUsers(ctx.db)),
  createUser: adminProcedure.input(createUserInput).mutation(({ ctx, input }) => createUser(ctx.db, input, ctx.actor)),
  updateUser: adminProcedure.input(updateUserInput).mutation(({ ctx, input }) => updateUser(ctx.db, input, ctx.actor)),
  tokens: adminProcedure.query(({ ctx }) => listApiTokens(ctx.db)),
  createToken: adminProcedure.input(createTokenInput).mutation(({ ctx, input }) => createApiToken(ctx.db, input, ctx.actor)),
  revokeToken: adminProcedure.input(revokeTokenInput).mutation(({ ctx, input }) => revokeApiToken(ctx.db, input.tokenId, ctx.actor)),
  audit: adminProcedure.input(listAuditInput).query(({ ctx, input }) => listAuditEvents(ctx.db, input)),
});

/** Who is asking: the one procedure anyone may call (the answer is null when signed out). */
export const sessionRouter = createTRPCRouter({
  me: publicProcedure.query(({ ctx }) => ctx.actor),
});
