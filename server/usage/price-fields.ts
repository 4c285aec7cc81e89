import type { FieldError } from "./budget";

/** Bounds of the price table: model names as endpoints report them, prices an admin can mistype but not overflow. */
export const MAX_MODEL_NAME_LENGTH = 200;
export const MAX_USD_PER_MILLION = 100_000;
export const MAX_MODEL_PRICES = 1_000;

export interface PriceInput {
  readonly model: string;
  readonly inputUsdPerMillion: number;
  readonly outputUsdPerMillion: number;
}

/** A price row as an admin submits it; each problem names its field. */
export function checkPriceInput(input: PriceInput): FieldError[] {
  const errors: FieldError[] = [];
  const model = input.model.trim();
  if (model === "") errors.push({ field: "model", message: "must not be empty" });
  else if (model.length > MAX_MODEL_NAME_LENGTH) errors.push({ field: "model", message: `must be at most ${MAX_MODEL_NAME_LENGTH} characters` });
  // eslint-disable-next-line no-control-regex
  else if (/[\u0000-\u001f\u007f]/.test(model)) errors.push({ field: "model", message: "must not contain control characters" });
  for (const field of ["inputUsdPerMillion", "outputUsdPerMillion"] as const) {
    const value = input[field];
    if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || value > MAX_USD_PER_MILLION) {
      errors.push({ field, message: `must be a price in US dollars per million tokens from 0 to ${MAX_USD_PER_MILLION}` });
    }
  }
  return errors;
}
