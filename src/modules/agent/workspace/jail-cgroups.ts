import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';

/**
 * One cgroup per sandbox, so that a sandbox's processes share one memory and one process budget
 * (a run forking four 750 MB processes otherwise takes 3 GB: the per-process limits multiply).
 *
 * Built for the cgroup v1 hierarchy (`memory` and `pids` controllers mounted under
 * /sys/fs/cgroup/, as on our machines): a `labdesk-sandboxes` directory below the service's own
 * cgroup of each controller, one child per sandbox with `memory.limit_in_bytes` (and
 * `memory.memsw.limit_in_bytes`, so swap is no way around it) and `pids.max`. The service must
 * be allowed to make them (root, or a delegated subtree). Anything else (the unified v2
 * hierarchy, no permission) leaves the per-process limits alone, which `describe` says once.
 */
export interface SandboxCgroup {
  /** The files a process writes its own pid to, before it execs the sandbox, to join the cgroup. */
  procsFiles: string[];
  /** Removes the cgroup once its processes are gone. */
  remove(): Promise<void>;
}

export interface CgroupLimits {
  memoryBytes: number;
  maxProcesses: number;
}

const ROOT = '/sys/fs/cgroup';
const PARENT = 'labdesk-sandboxes';

export class JailCgroups {
  private constructor(
    /** The parent directory of the sandboxes' cgroups in each controller, or null (per-process limits only). */
    private readonly parents: { memory: string; pids: string } | null,
    /** Why there are no cgroups, or null. */
    readonly unavailable: string | null,
  ) {}

  /** Per-process limits only, before the check has run. */
  static readonly none = new JailCgroups(null, 'not checked yet');

  /** Finds out once whether sandboxes can have cgroups here: makes the parents and a probe cgroup, then removes the probe. */
  static async detect(enabled: boolean, owner?: { uid: number; gid: number }): Promise<JailCgroups> {
    if (!enabled) return new JailCgroups(null, 'AGENT_SANDBOX_CGROUPS=off');
    try {
      const own = await ownCgroups();
      if (!own.memory || !own.pids || !fs.existsSync(path.join(ROOT, 'memory')) || !fs.existsSync(path.join(ROOT, 'pids'))) {
        return new JailCgroups(
          null,
          fs.existsSync(path.join(ROOT, 'cgroup.controllers'))
            ? 'the unified (v2) cgroup hierarchy is not supported yet'
            : 'no memory and pids controllers (cgroup v1) under /sys/fs/cgroup',
        );
      }
      const parents = { memory: path.join(ROOT, 'memory', own.memory, PARENT), pids: path.join(ROOT, 'pids', own.pids, PARENT) };
      for (const dir of Object.values(parents)) await fsp.mkdir(dir, { recursive: true });
      const cgroups = new JailCgroups(parents, null);
      await cgroups.create({ memoryBytes: 64 * 1024 ** 2, maxProcesses: 4 }, owner)!.remove();
      return cgroups;
    } catch (error) {
      return new JailCgroups(null, `cgroups cannot be made (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
  }

  /** What the log says at start. */
  describe(limits: CgroupLimits): string {
    return this.parents
      ? `one cgroup per sandbox: ${limits.memoryBytes} bytes of memory and ${limits.maxProcesses} processes for all its processes`
      : `per-process limits only (${this.unavailable}): a sandbox may use up to ${limits.maxProcesses} × ${limits.memoryBytes} bytes of address space`;
  }

  get enabled(): boolean {
    return this.parents !== null;
  }

  /**
   * A new cgroup with `limits`, its `cgroup.procs` files owned by `owner` (the sandbox's user, who
   * moves itself in before it execs bubblewrap); null without cgroups.
   */
  create(limits: CgroupLimits, owner?: { uid: number; gid: number }): SandboxCgroup | null {
    if (!this.parents) return null;
    const name = `sandbox-${randomUUID()}`;
    const memory = path.join(this.parents.memory, name);
    const pids = path.join(this.parents.pids, name);
    const made: string[] = [];
    const remove = async () => {
      for (const dir of made) {
        // Empty once its processes have exited; the kernel may take a moment to let go of the last.
        for (let attempt = 0; attempt < 50; attempt++) {
          const removed = await fsp.rmdir(dir).then(
            () => true,
            (error: NodeJS.ErrnoException) => error.code === 'ENOENT',
          );
          if (removed) break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
    };
    // A few small writes to cgroupfs, made synchronously so that the sandbox starts as it did.
    try {
      fs.mkdirSync(memory);
      made.push(memory);
      fs.writeFileSync(path.join(memory, 'memory.limit_in_bytes'), String(limits.memoryBytes));
      try {
        // Memory plus swap, where the kernel accounts swap: the same, so swap adds nothing.
        fs.writeFileSync(path.join(memory, 'memory.memsw.limit_in_bytes'), String(limits.memoryBytes));
      } catch {
        // no swap accounting on this kernel
      }
      fs.mkdirSync(pids);
      made.push(pids);
      fs.writeFileSync(path.join(pids, 'pids.max'), String(limits.maxProcesses));
      const procsFiles = [path.join(memory, 'cgroup.procs'), path.join(pids, 'cgroup.procs')];
      if (owner) for (const file of procsFiles) fs.chownSync(file, owner.uid, owner.gid);
      return { procsFiles, remove };
    } catch (error) {
      void remove();
      throw error;
    }
  }
}

/** This process's cgroup path in the v1 `memory` and `pids` hierarchies (from /proc/self/cgroup). */
async function ownCgroups(): Promise<{ memory?: string; pids?: string }> {
  const own: { memory?: string; pids?: string } = {};
  for (const line of (await fsp.readFile('/proc/self/cgroup', 'utf8')).split('\n')) {
    const [, controllers, where] = line.split(':');
    for (const controller of controllers?.split(',') ?? []) {
      if (controller === 'memory' || controller === 'pids') own[controller] = where;
    }
  }
  return own;
}
