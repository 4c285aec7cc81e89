/**
 * The choices the inspector offers. Copies of server/guards/guard-spec.ts GUARD_KINDS and
 * server/generators/generator-spec.ts GENERATOR_KINDS: importing those would pull server parsers
 * into the browser bundle. The live check still judges the document, so a drift shows there.
 */
export const GUARD_KINDS = ["syntax", "test", "tdd", "security", "json_schema", "llm_judge", "human", "all_of", "any_of"] as const;
export const GENERATOR_KINDS = ["openai", "llm", "agent", "replay"] as const;
export const STEP_TYPES = ["action_pair", "llm", "code", "transition"] as const;
export const ON_FAILURE = ["retry", "skip", "fail", "escalate"] as const;
