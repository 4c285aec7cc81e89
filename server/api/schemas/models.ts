import { z } from "zod";
import { apiKeySchema, endpointBaseUrlSchema, endpointNameSchema, modelNameSchema } from "@/server/models/endpoint-fields";

const id = z.string().trim().min(1, "must not be empty").max(100, "must be at most 100 characters");
/** An empty default model field means "none". */
const defaultModel = z.union([z.literal("").transform(() => null), modelNameSchema]).nullish();

export const createModelEndpointInput = z
  .object({ name: endpointNameSchema, baseUrl: endpointBaseUrlSchema, apiKey: apiKeySchema.optional(), defaultModel, isDefault: z.boolean().optional() })
  .strict();

export const updateModelEndpointInput = z
  .object({ id, name: endpointNameSchema, baseUrl: endpointBaseUrlSchema, apiKey: apiKeySchema.optional(), clearApiKey: z.boolean().optional(), defaultModel, isDefault: z.boolean().optional() })
  .strict()
  .refine((input) => !(input.apiKey && input.clearApiKey), { message: "give a new key or remove the key, not both", path: ["apiKey"] });

export const deleteModelEndpointInput = z.object({ id }).strict();

export const testModelEndpointInput = z
  .object({ id: id.optional(), baseUrl: endpointBaseUrlSchema.optional(), apiKey: apiKeySchema.optional(), defaultModel: modelNameSchema.optional() })
  .strict();

export const runModelPlanInput = z
  .object({
    workflowId: id,
    version: z.number().int("must be a whole number").min(1, "must be at least 1").optional(),
    /** The run replays a cassette (bundled or a file) instead of the steps' generators. */
    replay: z.boolean().default(false),
  })
  .strict();
