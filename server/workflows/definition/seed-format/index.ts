export { readSeedFormat, type SeedReading, type SeedReadOptions } from "./read-seed-format";
export { sourcePathOf } from "./findings";
export { variablesSetByCode } from "./infer-variables";
