import { once } from 'node:events';
import type { Response } from 'express';
import { requireAdmin } from '../src/modules/admin/admin.policy';
import { streamAllUsers } from '../src/modules/users/user.service';
import { stream } from './route';

/** Writes a chunk, waiting for the socket to drain when its buffer is full (constant memory). */
async function write(res: Response, chunk: string) {
  if (!res.write(chunk)) await once(res, 'drain');
}

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
  async handle(_req, res, ctx) {
    await requireAdmin(ctx);
    res.status(200).type('application/json');
    let first = true;
    await write(res, '{"users":[');
    await streamAllUsers(ctx.em, async (row) => {
      await write(res, `${first ? '' : ','}${JSON.stringify(row)}`);
      first = false;
    });
    res.end(']}');
  },
});
