import fs from 'node:fs';
import path from 'node:path';
import madge from 'madge';

/**
 * The house's layers (README, "Architecture"), read from the import graph of `src/` and
 * `facade/` (type-only imports included, as `madge --circular` counts them):
 * - no import cycles;
 * - `src/` never imports `facade/`, except the composition root (`src/app.ts`, the CLI);
 * - within a domain module, imports point down: resolvers → services → policies and
 *   repositories. Only the schema and other resolvers (the admin area shows labs, users and
 *   sessions as their own resolvers present them) import a resolver; policies and repositories
 *   never import a service.
 */

const ROOT = path.resolve(__dirname, '..');
let graph: Record<string, string[]>;
let cycles: string[][];

beforeAll(async () => {
  const result = await madge(['src', 'facade'], {
    baseDir: ROOT,
    fileExtensions: ['ts'],
    tsConfig: path.join(ROOT, 'tsconfig.json'),
    detectiveOptions: { ts: { skipTypeImports: false } },
  });
  graph = result.obj();
  cycles = result.circular();
}, 60_000);

const KINDS = ['resolver', 'service', 'policy', 'repository'] as const;
type Kind = (typeof KINDS)[number];
const kindOf = (file: string): Kind | undefined => KINDS.find((kind) => file.endsWith(`.${kind}.ts`));

/** Which kinds a file of each kind must not import. */
const FORBIDDEN: Record<Kind, Kind[]> = {
  resolver: [],
  service: ['resolver'],
  policy: ['resolver', 'service'],
  repository: ['resolver', 'service'],
};

const COMPOSITION_ROOT = (file: string) => file === 'src/app.ts' || file.startsWith('src/cli/');

const edges = () => Object.entries(graph).flatMap(([from, tos]) => tos.map((to) => ({ from, to })));

test('the graph is read whole: every part of the house is in it, type-only imports too', () => {
  expect(Object.keys(graph).length).toBeGreaterThan(150);
  // `membership.repository` is imported by `trajectory.policy` for a type only.
  expect(graph['src/modules/trajectories/trajectory.policy.ts']).toContain('src/modules/labs/membership.repository.ts');
  expect(graph['src/app.ts']).toContain('facade/http.ts');
  expect(Object.keys(graph).filter((file) => kindOf(file) === 'resolver').length).toBeGreaterThanOrEqual(10);
});

test('no import cycles', () => {
  expect(cycles).toEqual([]);
});

test('src/ imports facade/ only from the composition root', () => {
  const upward = edges().filter(({ from, to }) => from.startsWith('src/') && to.startsWith('facade/') && !COMPOSITION_ROOT(from));
  expect(upward).toEqual([]);
});

test('resolvers → services → policies and repositories: no import points up', () => {
  const upward = edges().filter(({ from, to }) => {
    const [a, b] = [kindOf(from), kindOf(to)];
    if (b === 'resolver' && a !== 'resolver') return from !== 'src/schema.ts';
    return a !== undefined && b !== undefined && FORBIDDEN[a].includes(b);
  });
  expect(upward).toEqual([]);
});

/**
 * What `facade/` may import from `src/modules/`: types (type-only imports), and the wire helpers
 * below (constants and wire forms, no domain work). Everything else, services, policies,
 * repositories and domain helpers alike, the facade reaches through operations of the schema.
 */
const FACADE_WIRE_HELPERS = new Map([
  ['src/modules/trajectories/record-schema.ts', 'the record JSON Schema the OpenAPI document publishes'],
  ['src/modules/a2a/a2a-parts.ts', 'the media types the agent card lists'],
  ['src/modules/a2a/a2a-artifacts.ts', 'the artifact download path'],
  ['src/modules/a2a/a2a-proto-json.ts', 'the A2A ProtoJSON wire form'],
  ['src/modules/a2a/a2a-states.ts', 'the A2A task states'],
  ['src/modules/a2a/a2a-artifact-file.ts', 'opens the bytes the a2aArtifactFile operation described'],
]);

/** The value imports of a source file (not `import type`), as repository paths. */
function valueImportsOf(file: string): string[] {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  const found: string[] = [];
  for (const match of text.matchAll(/^import\s+(type\s+)?[^;]*?\s+from\s+'(\.[^']+)';/gms)) {
    if (match[1]) continue;
    const target = path.relative(ROOT, path.resolve(path.dirname(path.join(ROOT, file)), match[2]));
    found.push(fs.existsSync(path.join(ROOT, `${target}.ts`)) ? `${target}.ts` : `${target}/index.ts`);
  }
  return found;
}

test('facade/ reaches the domain through operations: it imports no service, policy, repository or domain helper of src/modules', () => {
  const facadeFiles = Object.keys(graph).filter((file) => file.startsWith('facade/') && !file.startsWith('facade/generated/'));
  expect(facadeFiles).toEqual(expect.arrayContaining(['facade/files.ts', 'facade/streams.ts', 'facade/routes.ts', 'facade/http.ts']));
  const domainImports = facadeFiles.flatMap((from) =>
    valueImportsOf(from)
      .filter((to) => to.startsWith('src/modules/'))
      .map((to) => `${from} -> ${to}`),
  );
  // The reading is checked against madge's graph, so a missed import form would show here.
  for (const edge of domainImports) expect(graph[edge.split(' -> ')[0]]).toContain(edge.split(' -> ')[1]);
  const forbidden = domainImports.filter((edge) => !FACADE_WIRE_HELPERS.has(edge.split(' -> ')[1]));
  expect(forbidden).toEqual([]);
});

/**
 * The A2A server and the analysis agent depend one way: the agent implements A2A's ports (the
 * `AgentExecutor` of a2a-executor.ts, the task and turn stores) and the composition root hands it
 * in, as an a2a-js server is given its executor. Nothing in src/modules/a2a imports the agent.
 */
test('src/modules/a2a never imports src/modules/agent (the agent depends on A2A, not back)', () => {
  const moduleEdges = edges().filter(({ from, to }) => from.startsWith('src/modules/') && to.startsWith('src/modules/'));
  // The rule reads real edges: the agent's side of the pair is in the graph.
  expect(moduleEdges.some(({ from, to }) => from.startsWith('src/modules/agent/') && to.startsWith('src/modules/a2a/'))).toBe(true);
  const backwards = moduleEdges.filter(({ from, to }) => from.startsWith('src/modules/a2a/') && to.startsWith('src/modules/agent/'));
  expect(backwards).toEqual([]);
});
