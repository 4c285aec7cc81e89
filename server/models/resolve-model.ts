/**
 * The one answer to "which endpoint and model does this step call?": given what a generator (or
 * an llm_judge guard) names, the client settings to call with, or why there are none. Run starts
 * refuse on the reason; the worker and the CLI build their clients from the settings.
 */
import { ENVIRONMENT_ENDPOINT_NAME } from "./endpoint-fields";
import { defaultEndpoint, type DirectoryEndpoint, type ModelDirectory } from "./model-directory";

/** What a step names: an endpoint by name (else the default endpoint) and a model (else the endpoint's default). */
export interface ModelRequest {
  readonly endpoint?: string;
  readonly model?: string;
}

/** What a chat client needs. */
export interface ModelClientConfig {
  readonly baseURL?: string;
  readonly apiKey?: string;
  readonly model: string;
}

export type ModelResolution =
  | { readonly ok: true; readonly endpointName: string; readonly source: DirectoryEndpoint["source"]; readonly client: ModelClientConfig }
  /** `field`: the generator option at fault, for messages that name it. */
  | { readonly ok: false; readonly field: "endpoint" | "model"; readonly reason: string };

const ADD_ONE = "an admin adds one under Admin → Models";

function wanted(request: ModelRequest): string {
  return request.model ? `model "${request.model}"` : "a model";
}

export function resolveModel(directory: ModelDirectory, request: ModelRequest): ModelResolution {
  const endpoint = request.endpoint !== undefined ? directory.endpoints.find((candidate) => candidate.name === request.endpoint) : defaultEndpoint(directory);
  if (!endpoint) {
    if (request.endpoint === undefined) return { ok: false, field: "endpoint", reason: `needs ${wanted(request)}, but no model endpoint is configured (${ADD_ONE}, or sets OPENAI_BASE_URL)` };
    const names = directory.endpoints.map((candidate) => `"${candidate.name}"`);
    const hint = request.endpoint === ENVIRONMENT_ENDPOINT_NAME ? "OPENAI_BASE_URL and OPENAI_API_KEY are not set" : `configured: ${names.length > 0 ? names.join(", ") : "none"}`;
    return { ok: false, field: "endpoint", reason: `needs ${wanted(request)} on endpoint "${request.endpoint}", which is not configured (${hint})` };
  }
  if (endpoint.unusable) return { ok: false, field: "endpoint", reason: `needs ${wanted(request)} on endpoint "${endpoint.name}", which cannot be used: ${endpoint.unusable}` };
  const model = request.model ?? endpoint.defaultModel;
  if (!model) {
    const fix = endpoint.source === "environment" ? "set OPENAI_MODEL" : "give the endpoint a default model under Admin → Models";
    return { ok: false, field: "model", reason: `names no model, and endpoint "${endpoint.name}" has no default model (set the step's model option, or ${fix})` };
  }
  return { ok: true, endpointName: endpoint.name, source: endpoint.source, client: { baseURL: endpoint.baseURL, apiKey: endpoint.apiKey, model } };
}
