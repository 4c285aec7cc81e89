/**
 * The seccomp filter every sandboxed process runs under: a classic BPF program (what bwrap's
 * `--seccomp FD` loads) assembled here, so no libseccomp is needed. It denies the system calls
 * that widen the kernel's attack surface or could undo the namespaces (see DENIED_SYSCALLS), and
 * lets everything else through: the namespaces, the read-only file system and the resource
 * limits do the confining; this filter only takes away kernel interfaces ordinary code never
 * needs. Only x86-64 has a table; on any other architecture the boundary reports itself
 * unavailable rather than running without a filter.
 */

// struct seccomp_data: nr (u32) at 0, arch (u32) at 4, instruction pointer at 8, args (u64 each) from 16.
const NR_OFFSET = 0;
const ARCH_OFFSET = 4;
const ARG0_LOW_OFFSET = 16;

const BPF_LD_W_ABS = 0x20;
const BPF_JEQ_K = 0x15;
const BPF_JGE_K = 0x35;
const BPF_JSET_K = 0x45;
const BPF_RET_K = 0x06;

const SECCOMP_RET_KILL_PROCESS = 0x8000_0000;
const SECCOMP_RET_ERRNO = 0x0005_0000;
const SECCOMP_RET_ALLOW = 0x7fff_0000;

const EPERM = 1;
const ENOSYS = 38;
const EAFNOSUPPORT = 97;

const AUDIT_ARCH_X86_64 = 0xc000_003e;
/** x32 system calls set this bit in the number; the sandbox never needs that ABI. */
const X32_SYSCALL_BIT = 0x4000_0000;
const AF_UNIX = 1;
/** CLONE_NEWTIME | CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET. */
const CLONE_NAMESPACE_FLAGS = 0x0000_0080 | 0x0002_0000 | 0x0200_0000 | 0x0400_0000 | 0x0800_0000 | 0x1000_0000 | 0x2000_0000 | 0x4000_0000;

/** x86-64 numbers (asm/unistd_64.h) of the calls the sandbox refuses with EPERM, grouped by why. */
export const DENIED_SYSCALLS: Readonly<Record<string, number>> = {
  // Namespaces and mounts: the sandbox's view of the system must stay as bwrap made it.
  unshare: 272, setns: 308, mount: 165, umount2: 166, pivot_root: 155, chroot: 161, move_mount: 429, open_tree: 428,
  fsopen: 430, fsconfig: 431, fsmount: 432, fspick: 433, mount_setattr: 442,
  // Other processes' memory and handles.
  ptrace: 101, process_vm_readv: 310, process_vm_writev: 311, kcmp: 312, pidfd_getfd: 438,
  // Kernel interfaces with a history of privilege-escalation bugs that ordinary code never uses.
  keyctl: 250, add_key: 248, request_key: 249, bpf: 321, perf_event_open: 298, userfaultfd: 323,
  io_uring_setup: 425, io_uring_enter: 426, io_uring_register: 427, personality: 135, modify_ldt: 154,
  name_to_handle_at: 303, open_by_handle_at: 304, fanotify_init: 300, lookup_dcookie: 212,
  mbind: 237, migrate_pages: 256, move_pages: 279,
  // Administration of the machine.
  kexec_load: 246, kexec_file_load: 320, init_module: 175, finit_module: 313, delete_module: 176, uselib: 134,
  acct: 163, swapon: 167, swapoff: 168, reboot: 169, sethostname: 170, setdomainname: 171, iopl: 172, ioperm: 173,
  quotactl: 179, syslog: 103, settimeofday: 164, adjtimex: 159, clock_adjtime: 305, clock_settime: 227, vhangup: 153,
};
const SOCKET = 41;
const SOCKETPAIR = 53;
const CLONE = 56;
const CLONE3 = 435;

type Instruction = readonly [code: number, jt: number, jf: number, k: number];

const load = (offset: number): Instruction => [BPF_LD_W_ABS, 0, 0, offset];
const ret = (value: number): Instruction => [BPF_RET_K, 0, 0, value];
const errno = (code: number) => ret(SECCOMP_RET_ERRNO | code);

/** "If the call is `nr`, return `action`", in two instructions (A holds the number). */
function deny(nr: number, action: Instruction): Instruction[] {
  return [[BPF_JEQ_K, 0, 1, nr], action];
}

/** The socket family check: AF_UNIX passes, every other family fails with EAFNOSUPPORT. */
function unixSocketsOnly(nr: number): Instruction[] {
  return [[BPF_JEQ_K, 0, 4, nr], load(ARG0_LOW_OFFSET), [BPF_JEQ_K, 0, 1, AF_UNIX], ret(SECCOMP_RET_ALLOW), errno(EAFNOSUPPORT)];
}

function program(): Instruction[] {
  return [
    // Another architecture's calls have other numbers: kill instead of misreading them.
    load(ARCH_OFFSET),
    [BPF_JEQ_K, 1, 0, AUDIT_ARCH_X86_64],
    ret(SECCOMP_RET_KILL_PROCESS),
    load(NR_OFFSET),
    [BPF_JGE_K, 0, 1, X32_SYSCALL_BIT],
    ret(SECCOMP_RET_KILL_PROCESS),
    ...Object.values(DENIED_SYSCALLS).flatMap((nr) => deny(nr, errno(EPERM))),
    // clone3 passes its flags in memory, which a filter cannot read: ENOSYS makes glibc fall back to clone.
    ...deny(CLONE3, errno(ENOSYS)),
    // clone: threads and plain forks pass, new namespaces do not.
    [BPF_JEQ_K, 0, 4, CLONE],
    load(ARG0_LOW_OFFSET),
    [BPF_JSET_K, 0, 1, CLONE_NAMESPACE_FLAGS],
    errno(EPERM),
    ret(SECCOMP_RET_ALLOW),
    ...unixSocketsOnly(SOCKET),
    ...unixSocketsOnly(SOCKETPAIR),
    ret(SECCOMP_RET_ALLOW),
  ];
}

export type SeccompFilter = { readonly ok: true; readonly bytes: Buffer } | { readonly ok: false; readonly message: string };

let built: SeccompFilter | undefined;

/** The filter as bwrap reads it (struct sock_filter[], native byte order), or why there is none here. */
export function seccompFilter(arch: string = process.arch): SeccompFilter {
  if (arch !== "x64") return { ok: false, message: `the sandbox's seccomp filter has no system-call table for the ${arch} architecture (only x86-64)` };
  if (built) return built;
  const instructions = program();
  const bytes = Buffer.alloc(instructions.length * 8);
  instructions.forEach(([code, jt, jf, k], index) => {
    bytes.writeUInt16LE(code, index * 8);
    bytes.writeUInt8(jt, index * 8 + 2);
    bytes.writeUInt8(jf, index * 8 + 3);
    bytes.writeUInt32LE(k >>> 0, index * 8 + 4);
  });
  built = { ok: true, bytes };
  return built;
}
