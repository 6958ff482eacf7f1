import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { until } from './until';

/**
 * compose.yaml brought up by the deployment checks (test/deployment.test.ts), with podman or Docker.
 * With Docker, `docker compose` does it. With podman (CI: no Docker engine), this module does what
 * `docker compose up` does for the files we ship: it merges the override, interpolates `${…}`,
 * makes the project's network and volumes, and starts the services in dependency order, waiting
 * for `service_healthy` and `service_completed_successfully` (podman-compose 1.0.3, Debian's,
 * ignores those conditions). Containers are named as Docker names them, `<project>-<service>-1`.
 */
const ROOT = path.resolve(__dirname, '..', '..');
const run = promisify(execFile);

export type Engine = 'podman' | 'docker';

interface Service {
  image: string;
  command?: string[];
  entrypoint?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  ports?: string[];
  restart?: string;
  security_opt?: string[];
  depends_on?: string[] | Record<string, { condition: string; restart?: boolean }>;
  healthcheck?: { test: string[]; interval?: string; retries?: number };
}

interface ComposeFile {
  services: Record<string, Service>;
  volumes?: Record<string, unknown>;
}

/** One engine command; its output, or an error naming the command and what it printed. */
export async function engineRun(engine: Engine, args: string[], env: NodeJS.ProcessEnv = process.env) {
  try {
    const { stdout } = await run(engine, args, { env, maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    const failed = error as { stderr?: string; code?: number };
    throw new Error(`${engine} ${args.join(' ').slice(0, 300)} → ${failed.code}: ${failed.stderr?.trim().slice(-2000)}`, { cause: error });
  }
}

/** `${NAME}`, `${NAME:-default}`, `${NAME:?message}` and `$$`, as compose interpolates them. */
function interpolate(text: string, env: Record<string, string | undefined>): string {
  return text.replace(/\$\$|\$\{([A-Z0-9_]+)(?:(:-|:\?)([^}]*))?\}/g, (whole, name?: string, how?: string, rest?: string) => {
    if (whole === '$$') return '$';
    const value = env[name!];
    if (value) return value;
    if (how === ':?') throw new Error(`compose: ${rest}`);
    return how === ':-' ? rest! : '';
  });
}

function interpolateAll<T>(value: T, env: Record<string, string | undefined>): T {
  if (typeof value === 'string') return interpolate(value, env) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => interpolateAll(item, env)) as T;
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, interpolateAll(item, env)])) as T;
  return value;
}

/** compose's merge of an override: maps deep, `volumes` by target, commands replaced, other lists joined. */
function merge(base: unknown, over: unknown, key = ''): unknown {
  if (Array.isArray(base) && Array.isArray(over)) {
    if (key === 'command' || key === 'entrypoint' || key === 'test') return over;
    if (key === 'volumes') {
      const target = (volume: string) => volume.split(':')[1];
      return [...base.filter((volume: string) => !over.some((other: string) => target(other) === target(volume))), ...over];
    }
    return [...new Set([...base, ...over])];
  }
  if (base && over && typeof base === 'object' && typeof over === 'object' && !Array.isArray(base) && !Array.isArray(over)) {
    const merged: Record<string, unknown> = { ...(base as Record<string, unknown>) };
    for (const [name, value] of Object.entries(over)) merged[name] = name in merged ? merge(merged[name], value, name) : value;
    return merged;
  }
  return over;
}

export function loadCompose(files: string[], env: Record<string, string | undefined>): ComposeFile {
  const documents = files.map((file) => {
    const parsed = parse(fs.readFileSync(path.resolve(ROOT, file), 'utf8'), { merge: true }) as Record<string, unknown>;
    // `x-…` keys hold anchors only.
    return Object.fromEntries(Object.entries(parsed).filter(([name]) => !name.startsWith('x-')));
  });
  return interpolateAll(
    documents.reduce((all, next) => merge(all, next) as Record<string, unknown>),
    env,
  ) as unknown as ComposeFile;
}

const dependencies = (service: Service) =>
  Array.isArray(service.depends_on)
    ? service.depends_on.map((name) => [name, 'service_started'] as const)
    : Object.entries(service.depends_on ?? {}).map(([name, { condition }]) => [name, condition] as const);

export interface Stack {
  engine: Engine;
  project: string;
  /** The container that runs a service. */
  container(service: string): string;
  /** Creates and starts these services (all when none are named), after what they depend on; ready as compose waits for it. */
  up(services?: string[]): Promise<void>;
  /** Removes the project's containers and network; with `volumes`, its volumes too. */
  down(options?: { volumes?: boolean }): Promise<void>;
  /** `engine args…` with the stack's settings in the environment. */
  engine$(args: string[]): Promise<string>;
}

/** The stack of compose.yaml plus overrides, as project `project`. `env`: what `${…}` in the files reads. */
export function composeStack(engine: Engine, project: string, files: string[], env: Record<string, string>): Stack {
  const environment = { ...process.env, ...env };
  const container = (service: string) => `${project}-${service}-1`;
  const engine$ = (args: string[]) => engineRun(engine, args, environment);
  if (engine === 'docker') {
    const compose = (args: string[]) =>
      engine$(['compose', '-p', project, ...files.flatMap((file) => ['-f', path.resolve(ROOT, file)]), ...args]);
    return {
      engine,
      project,
      container,
      engine$,
      up: async (services = []) => void (await compose(['up', '-d', '--wait', '--no-build', ...services])),
      down: async ({ volumes = false } = {}) => void (await compose(['down', ...(volumes ? ['-v'] : [])])),
    };
  }

  const file = loadCompose(files, environment);
  const label = `com.docker.compose.project=${project}`;
  const network = `${project}_default`;
  const volumeName = (name: string) => (file.volumes && name in file.volumes ? `${project}_${name}` : undefined);

  const createArgs = (name: string, service: Service): string[] => {
    const args = ['create', '--name', container(name), '--label', label, '--label', `com.docker.compose.service=${name}`];
    args.push('--network', network, '--network-alias', name);
    if (service.restart) args.push('--restart', service.restart);
    for (const [key, value] of Object.entries(service.environment ?? {})) args.push('-e', `${key}=${value}`);
    for (const volume of service.volumes ?? []) {
      const [source, target, mode] = volume.split(':');
      const named = volumeName(source);
      const host = named ?? path.resolve(ROOT, source);
      args.push('-v', [host, target, ...(mode ? [mode] : [])].join(':'));
    }
    for (const port of service.ports ?? []) args.push('-p', port);
    for (const option of service.security_opt ?? []) args.push('--security-opt', option);
    if (service.healthcheck) {
      const [form, ...command] = service.healthcheck.test;
      args.push('--health-cmd', form === 'CMD' ? JSON.stringify(command) : command.join(' '));
      args.push('--health-interval', service.healthcheck.interval ?? '30s');
      args.push('--health-retries', String(service.healthcheck.retries ?? 3));
    }
    if (service.entrypoint) args.push('--entrypoint', JSON.stringify(service.entrypoint));
    args.push(service.image, ...(service.command ?? []));
    return args;
  };

  /** Polls until the condition holds; fails with the container's last log lines after `seconds`. */
  const waitFor = async (name: string, condition: string, seconds = 180) => {
    if (condition === 'service_started') return;
    const deadline = Date.now() + seconds * 1000;
    for (;;) {
      if (condition === 'service_completed_successfully') {
        const [state, code] = (await engine$(['inspect', '-f', '{{.State.Status}} {{.State.ExitCode}}', container(name)]))
          .trim()
          .split(' ');
        if (state === 'exited' && code === '0') return;
        if (state === 'exited') throw new Error(`${name} exited with ${code}: ${await engine$(['logs', '--tail', '30', container(name)])}`);
      } else {
        // podman runs no health checks on its own without systemd: run them as Docker's timer would.
        const healthy = await engineRun(engine, ['healthcheck', 'run', container(name)], environment).then(
          () => true,
          () => false,
        );
        if (healthy) return;
      }
      if (Date.now() > deadline)
        throw new Error(`${name} not ${condition} after ${seconds} s: ${await engine$(['logs', '--tail', '30', container(name)])}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  };

  return {
    engine,
    project,
    container,
    engine$,
    async up(services = Object.keys(file.services)) {
      if (!(await engine$(['network', 'ls', '--format', '{{.Name}}'])).split('\n').includes(network))
        await engine$(['network', 'create', '--label', label, network]);
      for (const name of Object.keys(file.volumes ?? {}))
        if (
          !(await engineRun(engine, ['volume', 'exists', `${project}_${name}`], environment).then(
            () => true,
            () => false,
          ))
        )
          await engine$(['volume', 'create', '--label', label, `${project}_${name}`]);
      // The services asked for and everything they need, in waves: each starts together, once its dependencies are ready.
      const wanted = new Set<string>();
      const add = (name: string) => {
        if (wanted.has(name)) return;
        wanted.add(name);
        for (const [dependency] of dependencies(file.services[name])) add(dependency);
      };
      services.forEach(add);
      const running = new Set((await engine$(['ps', '--filter', `label=${label}`, '--format', '{{.Names}}'])).split('\n').filter(Boolean));
      const ready = new Set<string>();
      const created = new Set<string>();
      while (ready.size < wanted.size) {
        const wave = [...wanted].filter(
          (name) => !ready.has(name) && dependencies(file.services[name]).every(([dependency]) => ready.has(dependency)),
        );
        if (!wave.length) throw new Error('compose: a dependency cycle');
        const toStart = wave.filter((name) => !running.has(container(name)));
        for (const name of toStart) {
          await engine$(['rm', '-f', '--ignore', container(name)]);
          await engine$(createArgs(name, file.services[name]));
          created.add(name);
        }
        if (toStart.length) await engine$(['start', ...toStart.map(container)]);
        // What its dependants wait for, and health for a service that has a check (`up --wait`).
        for (const name of wave) {
          const conditions = [...wanted].flatMap((other) =>
            dependencies(file.services[other])
              .filter(([dependency]) => dependency === name)
              .map(([, condition]) => condition),
          );
          if (file.services[name].healthcheck) conditions.push('service_healthy');
          for (const condition of new Set(conditions)) await waitFor(name, condition);
          ready.add(name);
        }
      }
      // `depends_on: {restart: true}`: a running service restarts when a dependency was recreated.
      for (const [name, service] of Object.entries(file.services)) {
        if (created.has(name) || !running.has(container(name)) || Array.isArray(service.depends_on)) continue;
        if (Object.entries(service.depends_on ?? {}).some(([dependency, { restart }]) => restart && created.has(dependency)))
          await engine$(['restart', container(name)]);
      }
    },
    async down({ volumes = false } = {}) {
      const names = (await engine$(['ps', '-a', '--filter', `label=${label}`, '--format', '{{.Names}}'])).split('\n').filter(Boolean);
      if (names.length) await engine$(['rm', '-f', '-t', '5', ...names]);
      await engine$(['network', 'rm', '-f', network]).catch(() => undefined);
      if (volumes)
        for (const volume of (await engine$(['volume', 'ls', '-q', '--filter', `label=${label}`])).split('\n').filter(Boolean))
          await engine$(['volume', 'rm', '-f', volume]);
    },
  };
}

/** Until the service at `url` answers `/readyz` with 200 (a stack coming up takes a while). */
export const untilReady = (url: string, seconds = 180) =>
  until(
    `${url} to answer ready`,
    () =>
      fetch(`${url}/readyz`).then(
        (reply) => reply.ok,
        () => false,
      ),
    { seconds, intervalMs: 500 },
  );
