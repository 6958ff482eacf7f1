import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import type { AgentWorkspaceConfig } from '../../../config';
import { AppError } from '../../../errors';
import type { Logger } from '../../../logger';
import { SandboxCgroup, JailCgroups } from './jail-cgroups';

/** Debian's bubblewrap, and util-linux's prlimit, which sets the code's resource limits inside the sandbox. */
const BWRAP = '/usr/bin/bwrap';
/** Runs the sandbox's first process: it moves itself into its cgroup (one `cgroup.procs` per controller), then execs bubblewrap. */
const JOIN_CGROUP = 'echo $$ > "$1" && echo $$ > "$2" && shift 2 && exec "$@"';
const PRLIMIT = '/usr/bin/prlimit';
/** Debian's interpreters: the service's own (a pyenv under /root, say) is not in the sandbox. */
const INTERPRETERS = { python: ['/usr/bin/python3', '/sandbox/main.py'], shell: ['/usr/bin/bash', '/sandbox/main.sh'] } as const;
export type Language = keyof typeof INTERPRETERS;
export const LANGUAGES = Object.keys(INTERPRETERS) as Language[];

/** The whole environment code sees: nothing of the service's (its keys, its database URL). */
const SANDBOX_ENV = {
  PATH: '/usr/local/bin:/usr/bin:/bin',
  HOME: '/workspace',
  LANG: 'C.UTF-8',
  TMPDIR: '/tmp',
  PYTHONPATH: '/workspace',
  PYTHONUNBUFFERED: '1',
  PYTHONDONTWRITEBYTECODE: '1',
};

/** Of /etc, only what the dynamic loader and the Debian alternatives need; with the network, name resolution and CA certificates too. */
const ETC_ALWAYS = ['/etc/alternatives', '/etc/ld.so.cache', '/etc/localtime'];
const ETC_NETWORK = ['/etc/resolv.conf', '/etc/hosts', '/etc/nsswitch.conf', '/etc/ssl', '/etc/ca-certificates'];
/** Open files of one process inside. */
const MAX_OPEN_FILES = 256;

/** What a finished sandbox process came to. */
export interface SandboxExit {
  /** The code's exit status (128 + n when signal n ended it inside, e.g. 137 for the memory or CPU limit's SIGKILL); null when we killed it. */
  exitCode: number | null;
  /** The signal that ended the sandbox from outside (SIGKILL on the time-out), else null. */
  signal: string | null;
  timedOut: boolean;
}

export interface SandboxCommand {
  /** The workspace's directory on this host, bound read-write at /workspace. */
  workspaceDir: string;
  language: Language;
  code: string;
  /** Share the host's network (only when the operator allows it). */
  network: boolean;
  wallSeconds: number;
}

/** A finished run with its output, bounded. */
export interface CapturedRun extends SandboxExit {
  stdout: string;
  stderr: string;
  /** Whether output was dropped (`droppedBytes` of both streams). */
  truncated: boolean;
  droppedBytes: number;
}

/** A started sandbox: its output streams, its end, and a way to end it early. */
export interface SandboxProcess {
  stdout: NodeJS.ReadableStream;
  stderr: NodeJS.ReadableStream;
  exited: Promise<SandboxExit>;
  kill(): void;
}

/**
 * The agent's code jail (not a compute lease's sandbox: that is `LocalComputeProvider`). Runs
 * code in bubblewrap, never without it: new user, pid, ipc, uts, cgroup and (unless the
 * network is granted) network namespaces; a root file system of read-only /usr and a few /etc
 * files, a private /proc, /dev and /tmp, and the workspace at /workspace; an empty environment
 * but for `SANDBOX_ENV`; resource limits set by prlimit inside (so RLIMIT_NPROC counts the
 * sandbox's own processes). A service running as root starts bubblewrap as `sandboxUid`, so the
 * code is never root outside its namespace and RLIMIT_NPROC applies (the kernel ignores it for root).
 * At most `concurrency` sandboxes run at once on this instance; beyond, `start` refuses.
 */
export class CodeJail {
  private running = 0;
  /** How to end each running sandbox of this instance (shutdown). */
  private readonly killers = new Map<ChildProcess, () => void>();
  private unavailableReason: string | null = 'code execution is unavailable: the sandbox has not been checked yet';
  /** One cgroup per sandbox where the host allows it (decided by `check`). */
  private cgroups: JailCgroups | null = null;

  constructor(
    readonly config: AgentWorkspaceConfig,
    private readonly logger: Logger,
  ) {}

  /** The uid and gid code runs as outside its namespace, when the service must switch (it runs as root); else undefined. */
  get switchTo(): { uid: number; gid: number } | undefined {
    return process.getuid?.() === 0 ? { uid: this.config.sandboxUid, gid: this.config.sandboxUid } : undefined;
  }

  /**
   * Checks once that bubblewrap is there and runs code in the directory `makeProbeDir` makes
   * (an empty workspace), and logs the outcome; until it succeeds every run is refused.
   */
  async check(makeProbeDir: () => Promise<string>): Promise<boolean> {
    this.cgroups = await JailCgroups.detect(this.config.cgroups === 'auto', this.switchTo);
    this.unavailableReason = await this.probe(makeProbeDir);
    if (this.unavailableReason) this.logger.warn(this.unavailableReason);
    else
      this.logger.info('code sandbox ready (bubblewrap)', {
        uid: this.switchTo?.uid ?? process.getuid?.(),
        concurrency: this.config.concurrency,
        network: this.config.networkAllowed ? 'allow' : 'deny',
        limits: this.limitsDescription,
      });
    return this.unavailableReason === null;
  }

  /** Why code cannot run here, or null when a probe ran as it should. */
  private async probe(makeProbeDir: () => Promise<string>): Promise<string | null> {
    const unavailable = (why: string) => `code execution is unavailable: ${why}`;
    if (!fs.existsSync(BWRAP)) return unavailable('bubblewrap (bwrap) is not installed');
    if (!fs.existsSync(PRLIMIT)) return unavailable('prlimit (util-linux) is not installed');
    let workspaceDir: string;
    try {
      workspaceDir = await makeProbeDir();
    } catch (error) {
      return unavailable(
        `AGENT_WORKSPACE_DIR cannot be prepared (${(error as NodeJS.ErrnoException).code ?? String(error)}: ${this.config.rootDir})`,
      );
    }
    const probe = await this.runToEnd({ workspaceDir, language: 'shell', code: 'echo ok', network: false, wallSeconds: 20 }, 4096).catch(
      (error: unknown) => ({
        exitCode: -1,
        stdout: '',
        stderr: String(error),
      }),
    );
    if (probe.exitCode === 0 && probe.stdout === 'ok\n') return null;
    const as = this.switchTo
      ? ` as uid ${this.switchTo.uid} (the service runs as root; that uid needs search permission on every directory above AGENT_WORKSPACE_DIR)`
      : '';
    return unavailable(`bubblewrap fails${as}: ${probe.stderr.trim().slice(0, 300) || `exit ${probe.exitCode}`}`);
  }

  /** How a sandbox's resources are bounded here: a cgroup each, or per process only (and why). */
  get limitsDescription(): string {
    return (this.cgroups ?? JailCgroups.none).describe({ memoryBytes: this.config.memoryBytes, maxProcesses: this.config.maxProcesses });
  }

  /** Whether each sandbox gets a cgroup of its own. */
  get cgroupsEnabled(): boolean {
    return this.cgroups?.enabled ?? false;
  }

  available(): boolean {
    return this.unavailableReason === null;
  }

  /** Why code cannot run, or null. */
  get unavailable(): string | null {
    return this.unavailableReason;
  }

  /**
   * Starts `command` in a sandbox; the caller reads its output and awaits `exited`.
   * @throws UNAVAILABLE when bubblewrap does not work here or all `concurrency` slots are taken.
   * @throws VALIDATION_FAILED when the network is asked for and the operator does not allow it.
   */
  start(command: SandboxCommand): SandboxProcess {
    if (this.unavailableReason) throw new AppError('UNAVAILABLE', this.unavailableReason);
    return this.spawnSandbox(command);
  }

  /**
   * Runs to the end keeping at most `keepBytes` of stdout and of stderr (the rest is counted and
   * dropped); `started` gets the process (to watch it) once it runs.
   * @throws as `start`.
   */
  capture(command: SandboxCommand, keepBytes: number, started?: (child: SandboxProcess) => void): Promise<CapturedRun> {
    if (this.unavailableReason) throw new AppError('UNAVAILABLE', this.unavailableReason);
    return this.runToEnd(command, keepBytes, started);
  }

  private async runToEnd(command: SandboxCommand, keepBytes: number, started?: (child: SandboxProcess) => void): Promise<CapturedRun> {
    const child = this.spawnSandbox(command);
    started?.(child);
    const stdout = new BoundedText(keepBytes);
    const stderr = new BoundedText(keepBytes);
    child.stdout.on('data', (chunk: Buffer) => stdout.add(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.add(chunk));
    const exit = await child.exited;
    return {
      ...exit,
      stdout: stdout.text(),
      stderr: stderr.text(),
      truncated: stdout.dropped + stderr.dropped > 0,
      droppedBytes: stdout.dropped + stderr.dropped,
    };
  }

  /** Kills every sandbox of this instance (shutdown). */
  close(): void {
    for (const kill of this.killers.values()) kill();
  }

  private spawnSandbox(command: SandboxCommand): SandboxProcess {
    if (command.network && !this.config.networkAllowed) {
      throw new AppError('VALIDATION_FAILED', 'network: this service does not give code the network (AGENT_SANDBOX_NETWORK=deny)');
    }
    if (this.running >= this.config.concurrency) {
      throw new AppError('UNAVAILABLE', `all ${this.config.concurrency} code sandboxes of this instance are busy; try again shortly`);
    }
    this.running++;
    let child: ChildProcess;
    let cgroup: SandboxCgroup | null = null;
    try {
      cgroup =
        this.cgroups?.create({ memoryBytes: this.config.memoryBytes, maxProcesses: this.config.maxProcesses }, this.switchTo) ?? null;
      const [program, args] = cgroup
        ? ['/bin/sh', ['-c', JOIN_CGROUP, 'sandbox', ...cgroup.procsFiles, BWRAP, ...this.bwrapArguments(command)]]
        : [BWRAP, this.bwrapArguments(command)];
      child = spawn(program, args, {
        env: {},
        // Its own process group, so that a time-out kills bubblewrap and, through --die-with-parent, all inside.
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe', 'pipe', 'pipe'],
        ...this.switchTo,
      });
    } catch (error) {
      this.running--;
      void cgroup?.remove();
      throw error;
    }
    // bubblewrap reads the code from fd 3 into a read-only file before the code starts.
    const codePipe = child.stdio[3] as NodeJS.WritableStream;
    codePipe.on('error', () => undefined);
    codePipe.end(command.code);
    // ...and says on fd 4 the host pid of the sandbox's init (pid 1 inside): killing it ends every
    // process of the sandbox, which --die-with-parent alone does not always do once bubblewrap is gone.
    const sandboxInit = readSandboxInit(child.stdio[4] as NodeJS.ReadableStream);
    const uid = this.switchTo?.uid ?? process.getuid?.();
    const killAll = () => {
      killGroup(child);
      void sandboxInit.then((pid) => pid !== undefined && killSandboxInit(pid, uid));
    };
    this.killers.set(child, killAll);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killAll();
    }, command.wallSeconds * 1000);
    // However bubblewrap ended (killed from outside, say), nothing of the sandbox outlives it.
    child.once('exit', () => void sandboxInit.then((pid) => pid !== undefined && killSandboxInit(pid, uid)));
    const exited = new Promise<SandboxExit>((resolve) => {
      let settled = false;
      const settle = (exit: SandboxExit) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        this.running--;
        this.killers.delete(child);
        void cgroup?.remove();
        resolve(exit);
      };
      // Only when bubblewrap cannot be started at all (the check found it, so it went away since).
      child.once('error', () => settle({ exitCode: -1, signal: null, timedOut: false }));
      child.once('close', (code, signal) => settle({ exitCode: timedOut ? null : code, signal: signal ?? null, timedOut }));
    });
    return { stdout: child.stdout!, stderr: child.stderr!, exited, kill: killAll };
  }

  private bwrapArguments(command: SandboxCommand): string[] {
    const { config } = this;
    const [interpreter, script] = INTERPRETERS[command.language];
    const args = ['--unshare-user', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try'];
    if (!command.network) args.push('--unshare-net');
    args.push('--info-fd', '4', '--die-with-parent', '--new-session', '--hostname', 'sandbox', '--clearenv');
    for (const [name, value] of Object.entries(SANDBOX_ENV)) args.push('--setenv', name, value);
    args.push('--ro-bind', '/usr', '/usr');
    // Merged /usr (Debian 12): /bin, /lib… are symlinks into it; elsewhere they are directories.
    for (const top of ['/bin', '/sbin', '/lib', '/lib64']) {
      const link = readLink(top);
      if (link !== undefined) args.push('--symlink', link, top);
      else if (fs.existsSync(top)) args.push('--ro-bind', top, top);
    }
    for (const file of [...ETC_ALWAYS, ...(command.network ? ETC_NETWORK : [])]) args.push('--ro-bind-try', file, file);
    args.push('--proc', '/proc', '--dev', '/dev');
    args.push('--size', String(config.maxFileBytes), '--tmpfs', '/tmp');
    args.push('--bind', command.workspaceDir, '/workspace', '--chdir', '/workspace');
    args.push('--perms', '0444', '--ro-bind-data', '3', script);
    // Nothing else is writable: not the root bubblewrap builds (a tmpfs), nor the /etc and /sandbox made on it.
    args.push('--remount-ro', '/');
    args.push(
      '--',
      PRLIMIT,
      `--cpu=${Math.min(config.cpuSeconds, command.wallSeconds)}`,
      `--as=${config.memoryBytes}`,
      `--nproc=${config.maxProcesses}`,
      `--fsize=${config.maxFileBytes}`,
      `--nofile=${MAX_OPEN_FILES}`,
      '--core=0',
      '--',
      interpreter,
      script,
    );
    return args;
  }
}

function readLink(file: string): string | undefined {
  try {
    return fs.readlinkSync(file);
  } catch {
    return undefined;
  }
}

/** The `child-pid` bubblewrap writes to its info fd (JSON), once it has it; undefined if it never says. */
function readSandboxInit(info: NodeJS.ReadableStream): Promise<number | undefined> {
  return new Promise((resolve) => {
    let text = '';
    info.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const pid = /"child-pid"\s*:\s*(\d+)/.exec(text);
      if (pid) resolve(Number(pid[1]));
      if (text.length > 4096) resolve(undefined);
    });
    info.on('error', () => resolve(undefined));
    info.on('close', () => resolve(undefined));
  });
}

/**
 * SIGKILL to the sandbox's init, which takes its whole pid namespace with it. Only while that pid
 * still belongs to the sandbox's user and is alive: once reaped, the number may be someone else's.
 */
function killSandboxInit(pid: number, uid: number | undefined): void {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    if (!new RegExp(`^Uid:\\s+${uid}\\s`, 'm').test(status) || /^State:\s+Z/m.test(status)) return;
    process.kill(pid, 'SIGKILL');
  } catch {
    // gone already
  }
}

/** SIGKILL to the sandbox's process group (bubblewrap); --die-with-parent takes everything inside with it. */
function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/**
 * Keeps the first three quarters and the last quarter of `limit` bytes of a stream and counts
 * what falls between, so a print loop costs the service no more than `limit` bytes.
 */
export class BoundedText {
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private tail = Buffer.alloc(0);
  dropped = 0;

  constructor(private readonly limit: number) {}

  add(chunk: Buffer): void {
    const headRoom = Math.floor((this.limit * 3) / 4) - this.headBytes;
    if (headRoom > 0) {
      const part = chunk.subarray(0, headRoom);
      this.head.push(part);
      this.headBytes += part.length;
      chunk = chunk.subarray(part.length);
      if (chunk.length === 0) return;
    }
    const tailLimit = this.limit - Math.floor((this.limit * 3) / 4);
    const joined = Buffer.concat([this.tail, chunk.subarray(Math.max(0, chunk.length - tailLimit))]);
    this.dropped += Math.max(0, chunk.length - tailLimit);
    const extra = Math.max(0, joined.length - tailLimit);
    this.dropped += extra;
    this.tail = joined.subarray(extra);
  }

  text(): string {
    const head = Buffer.concat(this.head).toString('utf8');
    const tail = this.tail.toString('utf8');
    return this.dropped > 0 ? `${head}\n[… ${this.dropped} bytes dropped …]\n${tail}` : head + tail;
  }
}
