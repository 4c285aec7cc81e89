/** Bounds on an experiment: every number comes from a request, a dataset or a command line. */
export const MAX_K = 20;
export const MAX_CONCURRENCY = 64;
export const MAX_SAMPLES = 10_000;
/** Experiments the watchdog tick pumps at once (the oldest first); the rest wait for the next tick. */
export const PUMPED_PER_TICK = 20;
