import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import createClient from 'openapi-fetch';
import type { components, paths } from './fixtures/openapi-types';
import { makeUser, useTestApp } from './support/app';
import { newSessionId, newUuid } from './support/trajectories';

const ROOT = path.resolve(__dirname, '..');
/** Both tools are ESM-only and cannot load inside jest's VM: their real CLIs run under node. */
const OPENAPI_TYPESCRIPT = path.join(ROOT, 'node_modules/openapi-typescript/bin/cli.js');
const REDOCLY = path.join(ROOT, 'node_modules/@redocly/cli/bin/cli.js');
const TYPES_FILE = path.join(ROOT, 'test/fixtures/openapi-types.ts');

/** The lint warnings docs/api/openapi.md explains, by rule and place. */
const EXPLAINED_WARNINGS = [
  'info-license #/info',
  'operation-4xx-response #/paths/~1admin~1api~1public~1models/get/responses',
  'operation-4xx-response #/paths/~1admin~1api~1public~1models~1manifest/get/responses',
];

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
}

/** The data of a successful call, or a failure that says what the server answered. */
function dataOf<T>(reply: { data?: T; error?: unknown; response: Response }): T {
  if (reply.data === undefined) throw new Error(`${reply.response.status}: ${JSON.stringify(reply.error)}`);
  return reply.data;
}

type TrajectoryRecord = components['schemas']['TrajectoryRecord'];

describe('the served OpenAPI document', () => {
  const t = useTestApp();
  let dir: string;
  let documentFile: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-openapi-'));
    documentFile = path.join(dir, 'openapi.json');
    const served = await t.call('GET', '/openapi.json');
    expect(served.status).toBe(200);
    fs.writeFileSync(documentFile, served.text);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('test/fixtures/openapi-types.ts is what openapi-typescript makes of it (run npm run openapi:types)', () => {
    const generated = path.join(dir, 'openapi-types.ts');
    execFileSync(process.execPath, [OPENAPI_TYPESCRIPT, documentFile, '--output', generated], { cwd: ROOT, stdio: 'pipe' });
    expect(fs.readFileSync(TYPES_FILE, 'utf8')).toBe(fs.readFileSync(generated, 'utf8'));
  });

  test("passes Redocly's recommended rules (redocly.yaml) with no error, and only the explained warnings", () => {
    const lint = spawnSync(
      process.execPath,
      [REDOCLY, 'lint', documentFile, '--config', path.join(ROOT, 'redocly.yaml'), '--format', 'json'],
      {
        cwd: ROOT,
        encoding: 'utf8',
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
    );
    const report = JSON.parse(lint.stdout) as LintReport;
    expect(report.problems.filter((p) => p.severity === 'error')).toEqual([]);
    expect(report.totals.errors).toBe(0);
    expect(lint.status).toBe(0);
    const warnings = report.problems.map((p) => `${p.ruleId} ${p.location[0].pointer}`).sort();
    expect(warnings).toEqual(EXPLAINED_WARNINGS);
  });

  test('declares the trajectory read, its query parameters and the append conflict', async () => {
    const document = JSON.parse(fs.readFileSync(documentFile, 'utf8'));
    const read = document.paths['/api/trajectories/{session_id}'].get;
    expect(read.parameters.map((p: { name: string; in: string }) => `${p.in} ${p.name}`)).toEqual([
      'path session_id',
      'query since',
      'query download',
    ]);
    expect(read.responses['200'].content['application/json'].schema.properties.records.items).toEqual({
      $ref: '#/components/schemas/TrajectoryRecord',
    });
    expect(read.responses['401']).toEqual({ $ref: '#/components/responses/Unauthenticated' });
    const raw = document.paths['/api/trajectories/{session_id}/figures/raw'].get;
    expect(raw.parameters).toContainEqual(expect.objectContaining({ name: 'path', in: 'query', required: true }));
    const append = document.paths['/api/trajectories/{session_id}/append'].put;
    expect(append.responses['409'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/AppendConflict' });
    expect(Object.keys(append.responses).sort()).toEqual(['200', '400', '401', '403', '404', '409', '413', '415', '422', 'default']);
    // A required input field is not nullable; an optional one is.
    const input = document.components.schemas.TrajectoryAppendInput;
    expect(input.required).toEqual(['records']);
    expect(input.properties.records.type).toBe('array');
    expect(input.properties.base_uuid.anyOf).toContainEqual({ type: 'null' });
    expect(document.components.schemas.LabCreateInput.properties.name).not.toHaveProperty('anyOf');
    // Uploads say what they take.
    const upload = document.paths['/api/trajectories/{session_id}/figures/upload'].post.requestBody.content['multipart/form-data'].schema;
    expect(upload.required).toEqual(['file', 'canonical_path']);
    const binary =
      document.paths['/admin/api/release/{product}/files/{version}/{filename}'].put.requestBody.content['application/octet-stream'].schema;
    expect(binary).toEqual({ type: 'string', contentMediaType: 'application/octet-stream' });
  });
});

describe('a client generated by openapi-typescript and openapi-fetch', () => {
  const t = useTestApp();

  test('creates a lab, appends records as objects, reads them back typed, and handles a 409', async () => {
    const owner = await makeUser(t);
    const client = createClient<paths, 'application/json'>({ baseUrl: t.url, headers: { Authorization: `Bearer ${owner.token}` } });

    const lab = dataOf(await client.POST('/api/labs', { body: { name: 'Typed Lab' } }));
    expect(lab.name).toBe('Typed Lab');

    const sessionId = newSessionId('openapi');
    const first: TrajectoryRecord = {
      uuid: newUuid(),
      type: 'user',
      parentUuid: null,
      message: { role: 'user', content: 'Plot the residuals' },
    };
    const second: TrajectoryRecord = {
      uuid: newUuid(),
      type: 'assistant',
      parentUuid: first.uuid,
      message: { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
    };
    const sessionPath = { path: { session_id: sessionId } };
    const appended = dataOf(
      await client.PUT('/api/trajectories/{session_id}/append', {
        params: sessionPath,
        body: { base_uuid: null, lab_id: lab.lab_id, title: 'Residuals', records: [first, second] },
      }),
    );
    expect(appended).toEqual({ session_id: sessionId, head_uuid: second.uuid, count: 2, appended: 2 });

    const read = dataOf(await client.GET('/api/trajectories/{session_id}', { params: sessionPath }));
    const records: TrajectoryRecord[] = read.records;
    expect(records).toEqual([first, second]);
    expect(read.head_uuid).toBe(second.uuid);
    expect(read.lab_id).toBe(lab.lab_id);
    expect(read.count).toBe(2);
    const since = dataOf(await client.GET('/api/trajectories/{session_id}', { params: { ...sessionPath, query: { since: first.uuid } } }));
    expect(since.records.map((record) => record.uuid)).toEqual([second.uuid]);

    // A client behind the server's head is told where the head is, in the typed error.
    const stale = await client.PUT('/api/trajectories/{session_id}/append', {
      params: sessionPath,
      body: { base_uuid: first.uuid, records: [{ uuid: newUuid(), type: 'user' }] },
    });
    expect(stale.response.status).toBe(409);
    expect(stale.data).toBeUndefined();
    const conflict = stale.error;
    if (!conflict || !('head_uuid' in conflict)) throw new Error(`expected the append conflict, got ${JSON.stringify(conflict)}`);
    expect(conflict.detail).toBe('not a fast-forward');
    expect(conflict.head_uuid).toBe(second.uuid);
    expect(conflict.count).toBe(2);

    // Catching up from the head it was given lands the batch.
    const third: TrajectoryRecord = { uuid: newUuid(), type: 'user', parentUuid: conflict.head_uuid };
    const caughtUp = dataOf(
      await client.PUT('/api/trajectories/{session_id}/append', {
        params: sessionPath,
        body: { base_uuid: conflict.head_uuid, records: [third] },
      }),
    );
    expect(caughtUp).toMatchObject({ head_uuid: third.uuid, count: 3, appended: 1 });

    // A record with an empty uuid is refused at its place, in the typed validation error.
    const invalid = await client.PUT('/api/trajectories/{session_id}/append', {
      params: sessionPath,
      body: { base_uuid: third.uuid, records: [{ uuid: '', type: 'user' }] },
    });
    expect(invalid.response.status).toBe(422);
    const issues = invalid.error && 'detail' in invalid.error && Array.isArray(invalid.error.detail) ? invalid.error.detail : [];
    expect(issues.map((issue) => issue.loc)).toEqual([['body', 'records', 0, 'uuid']]);
  });
});
