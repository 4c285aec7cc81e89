import { deleteModelPrice, listModelPrices, saveModelPrice } from "@/server/services/prices/model-prices";
import { deleteModelPriceInput, saveModelPriceInput } from "../schemas/prices";
import { adminProcedure, createTRPCRouter, viewerProcedure } from "../trpc";

/** The price table per model (Admin → Prices): everyone signed in reads it, admins change it (audited). */
export const pricesRouter = createTRPCRouter({
  list: viewerProcedure.query(({ ctx }) => listModelPrices(ctx.db)),
  save: adminProcedure.input(saveModelPriceInput).mutation(({ ctx, input }) => saveModelPrice(ctx.db, input, ctx.actor)),
  delete: adminProcedure.input(deleteModelPriceInput).mutation(({ ctx, input }) => deleteModelPrice(ctx.db, input.model, ctx.actor)),
});
