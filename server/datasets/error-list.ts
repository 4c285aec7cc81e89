import { DATASET_LIMITS } from "./limits";
import type { DatasetFileError } from "./types";

/**
 * Collects errors up to a cap, so a file with thousands of mistakes still yields a list a person
 * can read, and counts the rest into one closing line.
 */
export class ErrorList {
  private readonly items: DatasetFileError[] = [];
  private dropped = 0;

  get count(): number {
    return this.items.length + this.dropped;
  }

  add(line: number, field: string, message: string): void {
    if (this.items.length >= DATASET_LIMITS.errors) this.dropped++;
    else this.items.push({ line, field, message });
  }

  finish(): DatasetFileError[] {
    if (this.dropped === 0) return [...this.items];
    return [...this.items, { line: 0, field: "file", message: `${this.dropped} more error(s) not shown` }];
  }
}
