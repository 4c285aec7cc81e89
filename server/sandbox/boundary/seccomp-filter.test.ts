import { describe, expect, it } from "vitest";
import { DENIED_SYSCALLS, seccompFilter } from "./seccomp-filter";

/** Runs the classic BPF program on one seccomp_data (enough of the interpreter for this filter). */
function evaluate(program: Buffer, data: { nr: number; arch: number; arg0?: number }): number {
  const word = (offset: number) => (offset === 0 ? data.nr : offset === 4 ? data.arch : offset === 16 ? (data.arg0 ?? 0) : 0);
  let accumulator = 0;
  for (let pc = 0; pc * 8 < program.length; ) {
    const code = program.readUInt16LE(pc * 8);
    const jt = program.readUInt8(pc * 8 + 2);
    const jf = program.readUInt8(pc * 8 + 3);
    const k = program.readUInt32LE(pc * 8 + 4);
    if (code === 0x20) accumulator = word(k);
    else if (code === 0x06) return k;
    else if (code === 0x15) pc += accumulator === k ? jt : jf;
    else if (code === 0x35) pc += accumulator >= k ? jt : jf;
    else if (code === 0x45) pc += (accumulator & k) !== 0 ? jt : jf;
    else throw new Error(`unexpected instruction ${code}`);
    pc++;
  }
  throw new Error("fell off the end of the program");
}

const X86_64 = 0xc000003e;
const ALLOW = 0x7fff0000;
const KILL = 0x80000000;
const errno = (code: number) => 0x00050000 | code;

describe("the seccomp filter", () => {
  const filter = seccompFilter("x64");
  if (!filter.ok) throw new Error(filter.message);
  const run = (nr: number, arg0?: number, arch = X86_64) => evaluate(filter.bytes, { nr, arch, arg0 });

  it("kills calls from another architecture or the x32 ABI", () => {
    expect(run(0, undefined, 0x40000003)).toBe(KILL); // i386
    expect(run(0x40000000 + 41)).toBe(KILL);
  });

  it("refuses every listed call with EPERM, and clone3 with ENOSYS", () => {
    for (const [name, nr] of Object.entries(DENIED_SYSCALLS)) expect(run(nr), name).toBe(errno(1));
    expect(run(435)).toBe(errno(38));
  });

  it("lets AF_UNIX sockets through and refuses every other family", () => {
    expect(run(41, 1)).toBe(ALLOW);
    expect(run(53, 1)).toBe(ALLOW);
    for (const family of [2, 10, 16, 17, 38]) expect(run(41, family)).toBe(errno(97));
  });

  it("lets threads and forks clone, but not into new namespaces", () => {
    expect(run(56, 0x003d0f00)).toBe(ALLOW); // pthread_create's flags
    expect(run(56, 0x01200011)).toBe(ALLOW); // fork
    for (const flag of [0x10000000, 0x20000000, 0x40000000, 0x00020000, 0x08000000, 0x04000000, 0x02000000, 0x80]) expect(run(56, flag | 17)).toBe(errno(1));
  });

  it("allows ordinary calls (read, write, openat, mmap, exit_group)", () => {
    for (const nr of [0, 1, 257, 9, 231]) expect(run(nr)).toBe(ALLOW);
  });

  it("has no table for other architectures: the boundary is unavailable there, not unfiltered", () => {
    expect(seccompFilter("arm64")).toEqual({ ok: false, message: expect.stringContaining("only x86-64") });
  });
});
