import type { RegExpEngine } from "ajv";

export declare const linearRegExp: RegExpEngine;
