import type { Reply, TestApp } from './app';

/** Anyone holding a token: a test user, or the admin. */
export type Actor = { token: string; id?: string };

let counter = 0;
/** A fresh client-chosen session id (1-128 of [A-Za-z0-9._:-]). */
export const newSessionId = (label = 's') => `${label}.${process.pid}:${++counter}-${Math.random().toString(36).slice(2, 8)}`;
/** A fresh record uuid. */
export const newUuid = (label = 'r') => `${label}-${++counter}-${Math.random().toString(36).slice(2, 10)}`;

export const last = <T>(xs: T[]) => xs[xs.length - 1];

export const sessionPath = (id: string, tail = '') => `/api/trajectories/${encodeURIComponent(id)}${tail}`;

/** The members of a trajectory meta (its OpenAPI schema), sorted. */
export const META_KEYS = [
  'session_id',
  'owner_id',
  'lab_id',
  'visibility',
  'title',
  'count',
  'head_uuid',
  'bytes',
  'created_at',
  'updated_at',
  'archived_at',
  'forked_from',
  'figure_count',
  'open_annotations',
  'source',
].sort();

/** The trajectory calls the tests make, as `who`. */
export function trajectoryCalls(t: TestApp) {
  return {
    append: (who: Actor, id: string, base: string | null, records: unknown[], extra: Record<string, unknown> = {}) =>
      t.call('PUT', sessionPath(id, '/append'), { token: who.token, body: { base_uuid: base, records, ...extra } }),
    cover: (who: Actor, id: string, records: unknown[], extra: Record<string, unknown> = {}) =>
      t.call('PUT', sessionPath(id, '/full'), { token: who.token, body: { records, ...extra } }),
    read: (who: Actor, id: string, query?: Record<string, string>) => t.call('GET', sessionPath(id), { token: who.token, query }),
    meta: (who: Actor, id: string) => t.call('GET', sessionPath(id, '/meta'), { token: who.token }),
    setVisibility: (who: Actor, id: string, body: Record<string, unknown>) =>
      t.call('PATCH', sessionPath(id, '/visibility'), { token: who.token, body }),
    remove: (who: Actor, id: string) => t.call('DELETE', sessionPath(id), { token: who.token }),
  };
}

/** A real 1×1 PNG. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** Uploads `png` as the session's figure at `path`, as `who` (multipart, as the clients do). */
export async function uploadFigure(t: TestApp, who: Actor, id: string, path: string, png = TINY_PNG) {
  const form = new FormData();
  form.append('canonical_path', path);
  form.append('mime', 'image/png');
  form.append('file', new Blob([png], { type: 'image/png' }), path.split('/').pop());
  const uploaded = await fetch(`${t.url}${sessionPath(id, '/figures/upload')}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${who.token}` },
    body: form,
  });
  expect(uploaded.status).toBe(200);
}

/** The records part of a `GET /api/trajectories/{id}` answer, exactly as the server wrote it. */
export function recordsText(reply: Reply): string {
  const marker = ',"records":[';
  const at = reply.text.indexOf(marker);
  expect(at).toBeGreaterThan(0);
  expect(reply.text.endsWith(']}')).toBe(true);
  return reply.text.slice(at + marker.length, -2);
}
