import { randomUUID } from "node:crypto";
import type { Actor } from "@/server/api/trpc";
import { getEnv } from "@/server/env";
import { apiKeyHint } from "@/server/models/endpoint-fields";
import { encryptionKeyFor, type ModelSettingsEnv } from "@/server/models/load-from-prisma";
import { environmentEndpoint } from "@/server/models/model-directory";
import { sealSecret } from "@/server/models/secret-box";
import type { Db } from "@/server/persistence/db";
import { recordAuditEvent } from "../audit/record-audit-event";
import { conflict, notFound } from "../errors";
import { isUniqueConstraintViolation } from "../prisma-errors";

export interface NewModelEndpoint {
  readonly name: string;
  readonly baseUrl: string;
  readonly apiKey?: string;
  readonly defaultModel?: string | null;
  readonly isDefault?: boolean;
}

export interface ModelEndpointChange {
  readonly id: string;
  readonly name: string;
  readonly baseUrl: string;
  readonly defaultModel?: string | null;
  readonly isDefault?: boolean;
  /** A new key replaces the stored one; absent keeps it. */
  readonly apiKey?: string;
  /** Removes the stored key (for servers that need none). */
  readonly clearApiKey?: boolean;
}

type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

async function sealedKey(db: Db, settings: ModelSettingsEnv, id: string, apiKey: string) {
  return { apiKeyCiphertext: sealSecret(apiKey, await encryptionKeyFor(db, settings), id), apiKeyHint: apiKeyHint(apiKey) };
}

/** At most one endpoint is the default: marking one unmarks the others. */
async function unmarkOthers(tx: Tx, id: string, isDefault: boolean | undefined) {
  if (isDefault) await tx.modelEndpoint.updateMany({ where: { id: { not: id }, isDefault: true }, data: { isDefault: false } });
}

function nameTaken(error: unknown, name: string): never {
  if (isUniqueConstraintViolation(error)) throw conflict(`name: an endpoint named "${name}" already exists`);
  throw error;
}

/** Stores a new endpoint, its key sealed. */
export async function createModelEndpoint(db: Db, input: NewModelEndpoint, by: Actor, settings: ModelSettingsEnv = getEnv()): Promise<{ id: string }> {
  const id = randomUUID();
  const key = input.apiKey ? await sealedKey(db, settings, id, input.apiKey) : { apiKeyCiphertext: null, apiKeyHint: null };
  try {
    await db.$transaction(async (tx) => {
      // Unless told, the first endpoint becomes the default when nothing else serves steps that name none.
      const isDefault = input.isDefault ?? (!environmentEndpoint(settings) && (await tx.modelEndpoint.count({ where: { isDefault: true } })) === 0);
      await unmarkOthers(tx, id, isDefault);
      await tx.modelEndpoint.create({ data: { id, name: input.name, baseUrl: input.baseUrl, defaultModel: input.defaultModel ?? null, isDefault, ...key, createdBy: by.email, updatedBy: by.email } });
      await recordAuditEvent(tx, { actor: by, action: "model_endpoint.created", target: `model_endpoint:${input.name}`, detail: { baseUrl: input.baseUrl, defaultModel: input.defaultModel ?? null, apiKeySet: Boolean(input.apiKey), isDefault } });
    });
  } catch (error) {
    nameTaken(error, input.name);
  }
  return { id };
}

export async function updateModelEndpoint(db: Db, input: ModelEndpointChange, by: Actor, settings: ModelSettingsEnv = getEnv()): Promise<{ id: string }> {
  const existing = await db.modelEndpoint.findUnique({ where: { id: input.id }, select: { id: true, name: true } });
  if (!existing) throw notFound("Model endpoint", input.id);
  const key = input.apiKey ? await sealedKey(db, settings, existing.id, input.apiKey) : input.clearApiKey ? { apiKeyCiphertext: null, apiKeyHint: null } : {};
  try {
    await db.$transaction(async (tx) => {
      await unmarkOthers(tx, existing.id, input.isDefault);
      await tx.modelEndpoint.update({
        where: { id: existing.id },
        data: { name: input.name, baseUrl: input.baseUrl, defaultModel: input.defaultModel ?? null, ...(input.isDefault !== undefined ? { isDefault: input.isDefault } : {}), ...key, updatedBy: by.email },
      });
      const keyChange = input.apiKey ? "replaced" : input.clearApiKey ? "removed" : "kept";
      await recordAuditEvent(tx, { actor: by, action: "model_endpoint.updated", target: `model_endpoint:${input.name}`, detail: { previousName: existing.name, baseUrl: input.baseUrl, defaultModel: input.defaultModel ?? null, apiKey: keyChange, isDefault: input.isDefault ?? null } });
    });
  } catch (error) {
    nameTaken(error, input.name);
  }
  return { id: existing.id };
}

export async function deleteModelEndpoint(db: Db, id: string, by: Actor): Promise<void> {
  await db.$transaction(async (tx) => {
    const existing = await tx.modelEndpoint.findUnique({ where: { id }, select: { name: true } });
    if (!existing) throw notFound("Model endpoint", id);
    await tx.modelEndpoint.delete({ where: { id } });
    await recordAuditEvent(tx, { actor: by, action: "model_endpoint.deleted", target: `model_endpoint:${existing.name}` });
  });
}
