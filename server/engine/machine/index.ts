/** The one workflow interpreter: state machines, of which 001's step list is the linear case. */
export * from "./machine";
export { runMachine, DEFAULT_MAX_TURNS, type MachineRun } from "./run-machine";
export { linearMachine } from "./linear-machine";
export { visitLedger } from "./visit-ledger";
