import type { Actor } from "@/server/api/trpc";
import type { Db } from "@/server/persistence/db";
import { checkPriceInput, MAX_MODEL_PRICES, type PriceInput } from "@/server/usage/price-fields";
import { recordAuditEvent } from "../audit/record-audit-event";
import { conflict, invalidInput, notFound } from "../errors";

export interface ModelPriceRow {
  model: string;
  inputUsdPerMillion: number;
  outputUsdPerMillion: number;
  updatedBy: string;
  updatedAt: Date;
}

/** The price table, by model name. */
export async function listModelPrices(db: Db): Promise<ModelPriceRow[]> {
  return db.modelPrice.findMany({ orderBy: { model: "asc" }, take: MAX_MODEL_PRICES });
}

/**
 * Sets a model's price (creating its row or replacing it), audited in the same transaction. Calls
 * already made keep the price recorded with them; only later calls use the new one.
 */
export async function saveModelPrice(db: Db, input: PriceInput, by: Actor): Promise<ModelPriceRow> {
  const [first] = checkPriceInput(input);
  if (first) throw invalidInput(first.field, first.message);
  const model = input.model.trim();
  return db.$transaction(async (tx) => {
    const before = await tx.modelPrice.findUnique({ where: { model } });
    if (!before && (await tx.modelPrice.count()) >= MAX_MODEL_PRICES) throw conflict(`model: the price table holds at most ${MAX_MODEL_PRICES} models; delete one first`);
    const data = { inputUsdPerMillion: input.inputUsdPerMillion, outputUsdPerMillion: input.outputUsdPerMillion, updatedBy: by.email };
    const saved = await tx.modelPrice.upsert({ where: { model }, create: { model, ...data }, update: data });
    await recordAuditEvent(tx, {
      actor: by,
      action: "model_price.saved",
      target: `model_price:${model}`,
      detail: { inputUsdPerMillion: input.inputUsdPerMillion, outputUsdPerMillion: input.outputUsdPerMillion, ...(before ? { previous: { inputUsdPerMillion: before.inputUsdPerMillion, outputUsdPerMillion: before.outputUsdPerMillion } } : {}) },
    });
    return saved;
  });
}

/** Removes a model's price: later calls of it are unpriced (their tokens still count). */
export async function deleteModelPrice(db: Db, model: string, by: Actor): Promise<void> {
  await db.$transaction(async (tx) => {
    const before = await tx.modelPrice.findUnique({ where: { model } });
    if (!before) throw notFound("Model price", model);
    await tx.modelPrice.delete({ where: { model } });
    await recordAuditEvent(tx, { actor: by, action: "model_price.deleted", target: `model_price:${model}`, detail: { inputUsdPerMillion: before.inputUsdPerMillion, outputUsdPerMillion: before.outputUsdPerMillion } });
  });
}
