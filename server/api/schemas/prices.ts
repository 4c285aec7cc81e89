import { z } from "zod";
import { MAX_MODEL_NAME_LENGTH, MAX_USD_PER_MILLION } from "@/server/usage/price-fields";

const usdPerMillion = z
  .number({ error: "must be a number (US dollars per million tokens)" })
  .min(0, "must not be negative")
  .max(MAX_USD_PER_MILLION, `must be at most ${MAX_USD_PER_MILLION}`);
const model = z.string().trim().min(1, "must not be empty").max(MAX_MODEL_NAME_LENGTH, `must be at most ${MAX_MODEL_NAME_LENGTH} characters`);

export const saveModelPriceInput = z.object({ model, inputUsdPerMillion: usdPerMillion, outputUsdPerMillion: usdPerMillion }).strict();
export const deleteModelPriceInput = z.object({ model }).strict();
