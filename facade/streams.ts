import type { Response } from 'express';
import { AppError, invalid } from '../src/errors';
import * as Op from './generated/operations';
import { param } from './files';
import { replaceStringValues } from './raw-json';
import { stream } from './route';
import { TRAJECTORY_RECORD } from './schemas';

/**
 * Writes a chunk, waiting for the socket to drain when its buffer is full (constant memory).
 * A client that goes away ends the wait with an error, so the producer (and any database cursor
 * behind it) stops instead of waiting forever.
 */
export async function write(res: Response, chunk: string) {
  if (res.destroyed) throw clientGone();
  if (res.write(chunk)) return;
  await new Promise<void>((resolve, reject) => {
    const settle = (error?: Error) => {
      res.off('drain', onDrain);
      res.off('close', onClose);
      if (error) reject(error);
      else resolve();
    };
    const onDrain = () => settle();
    const onClose = () => settle(clientGone());
    res.on('drain', onDrain);
    res.on('close', onClose);
  });
}

const clientGone = () => new AppError('BAD_REQUEST', 'the client closed the connection');

/**
 * `GET /api/admin/sync/users`: the whole user table as `{"users": [...]}`, streamed from a
 * database cursor. No pagination: a downstream deployment upserts every row.
 */
export const syncUsersRoute = stream({
  method: 'GET',
  path: '/api/admin/sync/users',
  auth: 'admin',
  tag: 'admin',
  summary: 'Full user table dump for replication (streamed)',
  produces: 'application/json',
  response: {
    type: 'object',
    required: ['users'],
    properties: { users: { type: 'array', items: { type: 'object', description: 'A row of the user table, its raw columns' } } },
  },
  // The `adminUserSync` subscription: an administrator, as for every admin query; its batches are the rows.
  authorize: (_req, _ctx, { subscribe }) => subscribe(Op.AdminUserSyncDocument, {}),
  async handle(_req, res, _ctx, batches) {
    res.status(200).type('application/json');
    let first = true;
    await write(res, '{"users":[');
    for await (const { adminUserSync } of batches) {
      await write(res, `${first ? '' : ','}${adminUserSync.rows.join(',')}`);
      first = false;
    }
    res.end(']}');
  },
});

function flag(value: unknown, name: string): boolean {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  throw invalid([{ path: ['query', name], msg: 'must be true or false', type: 'type_error' }]);
}

function text(value: unknown, name: string, max: number): string | null {
  if (value === undefined) return null;
  if (typeof value !== 'string' || value.length === 0 || value.length > max) {
    throw invalid([{ path: ['query', name], msg: `must be given once, 1-${max} characters`, type: 'type_error' }]);
  }
  return value;
}

/** Longest `since` uuid (a record uuid is at most this long). */
const SINCE_MAX = 200;

/**
 * `GET /api/trajectories/{session_id}`: the metadata and the records as stored, byte for byte
 * (`since`: only the records after that uuid). `download=true`: NDJSON attachment, one record per
 * line. Streamed in batches, so a long session costs flat memory.
 */
/** Line breaks, which in JSON text can only be whitespace between tokens. */
const LINE_BREAKS = /[\r\n]/g;

export const trajectoryReadRoute = stream({
  method: 'GET',
  path: '/api/trajectories/{session_id}',
  auth: 'user',
  tag: 'trajectories',
  summary: 'A trajectory with its records (since: after a uuid; download=true: NDJSON)',
  produces: 'application/json',
  query: [
    {
      name: 'since',
      description: 'Only the records after the one with this uuid',
      schema: { type: 'string', minLength: 1, maxLength: SINCE_MAX },
    },
    {
      name: 'download',
      description: 'true: the records as an NDJSON attachment, one per line, without the metadata',
      schema: { type: 'boolean', default: false },
    },
  ],
  response: {
    like: Op.TrajectoryMetaDocument,
    result: 'trajectoryMeta',
    members: { records: { type: 'array', items: TRAJECTORY_RECORD } },
  },
  alsoProduces: { 'application/x-ndjson': { type: 'string', description: 'download=true: one record per line' } },
  // The `trajectoryMeta` operation, whose resolver lets a viewer of the session read it: its metadata.
  async authorize(req, _ctx, { run }) {
    const sessionId = param(req, 'session_id');
    return { sessionId, meta: (await run(Op.TrajectoryMetaDocument, { sessionId })).trajectoryMeta };
  },
  async handle(req, res, ctx, { sessionId, meta }, { run, subscribe }) {
    const since = text(req.query.since, 'since', SINCE_MAX);
    const download = flag(req.query.download, 'download');
    // The `trajectoryRecordBatches` subscription finds `since` (and checks the viewer again, as every
    // domain read does) before anything is written.
    const records = await subscribe(Op.TrajectoryRecordBatchesDocument, { sessionId, since });
    const batches = (async function* () {
      for await (const { trajectoryRecordBatches } of records) yield trajectoryRecordBatches.records;
    })();
    // A cloud client cannot open local figure paths: it gets serve URLs instead (response only):
    // every string value equal to a figure's canonical path becomes its serve URL.
    const figures =
      ctx.clientKind === 'cloud'
        ? new Map(
            (await run(Op.TrajectoryFigureServeUrlsDocument, { sessionId })).trajectoryFigureServeUrls.map(({ path, url }) => [path, url]),
          )
        : new Map<string, string>();
    const served = figures.size ? (raw: string) => replaceStringValues(raw, (value) => figures.get(value)) : (raw: string) => raw;
    if (download) {
      res.status(200).type('application/x-ndjson').setHeader('Content-Disposition', `attachment; filename="${sessionId}.jsonl"`);
      // One record per line. JSON strings cannot hold a raw line break, so every CR or LF in a stored
      // record is whitespace between tokens: dropping it keeps every value exactly as sent.
      const line = (stored: string) => `${served(stored).replace(LINE_BREAKS, '')}\n`;
      for await (const texts of batches) await write(res, texts.map(line).join(''));
      res.end();
      return;
    }
    res.status(200).type('application/json');
    await write(res, `${JSON.stringify(meta).slice(0, -1)},"records":[`);
    let first = true;
    for await (const texts of batches) {
      await write(res, `${first ? '' : ','}${texts.map(served).join(',')}`);
      first = false;
    }
    res.end(']}');
  },
});

/** What an export is written as, by `format`. */
const EXPORTS: Record<string, { type: string; extension: string }> = {
  ipynb: { type: 'application/x-ipynb+json', extension: 'ipynb' },
  html: { type: 'text/html; charset=utf-8', extension: 'html' },
};

/**
 * `GET /api/trajectories/{session_id}/export`: the trajectory as a Jupyter notebook (`format=ipynb`,
 * the default) or one self-contained HTML report (`format=html`), an attachment written piece by
 * piece as the `trajectoryExport` subscription makes it (src/modules/exports). `for_sharing=true`
 * masks secrets as a share link does. For a viewer of the trajectory.
 */
export const trajectoryExportRoute = stream({
  method: 'GET',
  path: '/api/trajectories/{session_id}/export',
  auth: 'user',
  tag: 'trajectories',
  summary: 'The trajectory as a Jupyter notebook or one HTML report (figures and resolved notes in it)',
  produces: EXPORTS.ipynb.type,
  alsoProduces: { 'text/html': { type: 'string', description: 'format=html: one HTML file that fetches nothing' } },
  query: [
    { name: 'format', description: 'ipynb (nbformat 4.5) or html', schema: { type: 'string', enum: ['ipynb', 'html'], default: 'ipynb' } },
    { name: 'for_sharing', description: 'true: secrets masked, as in a share link', schema: { type: 'boolean', default: false } },
  ],
  // The `trajectoryMeta` operation, whose resolver lets a viewer of the session read it: its title names the file.
  async authorize(req, _ctx, { run }) {
    const sessionId = param(req, 'session_id');
    const format = req.query.format ?? 'ipynb';
    if (typeof format !== 'string' || !EXPORTS[format])
      throw invalid([{ path: ['query', 'format'], msg: 'must be ipynb or html', type: 'enum' }]);
    const forSharing = flag(req.query.for_sharing, 'for_sharing');
    return { sessionId, format, forSharing, title: (await run(Op.TrajectoryMetaDocument, { sessionId })).trajectoryMeta.title };
  },
  async handle(_req, res, _ctx, { sessionId, format, forSharing, title }, { subscribe }) {
    // The subscription checks the viewer again (as every domain read does) before anything is written.
    const chunks = await subscribe(Op.TrajectoryExportDocument, { sessionId, format, forSharing });
    const { type, extension } = EXPORTS[format];
    // A name every file system keeps; the masked copy says so, beside the plain one in Downloads.
    const name =
      (title ?? sessionId)
        .replace(/[^A-Za-z0-9._ ,()-]+/g, '_')
        .slice(0, 80)
        .trim() || 'trajectory';
    const file = `${name}${forSharing ? ' (secrets masked)' : ''}.${extension}`;
    res.status(200).type(type).setHeader('Content-Disposition', `attachment; filename="${file}"`);
    for await (const { trajectoryExport } of chunks) await write(res, trajectoryExport.text);
    res.end();
  },
});
