import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Blobs } from '../../blobs';
import type { Query } from '../../db/sql';
import { insertPayloadRow } from './trajectory.repository';

/**
 * Texts of records over the inline threshold. With a blob store they are content-addressed
 * objects (`records/<sha256>`, reference `blob:<sha256>`); with `BLOB_STORE=none`, rows of
 * `record_payloads` (reference `db:<id>`). Either way nothing is truncated.
 *
 * The object is written before the row that points at it, so a failed or interrupted write
 * leaves at most an object nothing refers to, never a reference to a missing object.
 */
export async function storePayload(q: Query, blobs: Blobs, sessionId: string, text: string): Promise<string> {
  if (!blobs.store) {
    return `db:${await insertPayloadRow(q, sessionId, text)}`;
  }
  const sha256 = createHash('sha256').update(text).digest('hex');
  const key = `records/${sha256}`;
  if (!(await blobs.store.stat(key))) {
    const file = path.join(blobs.tmpDir, `record-${randomUUID()}`);
    await fs.promises.writeFile(file, text, { mode: 0o600 });
    await blobs.store.putFile(key, file, { contentType: 'application/json' });
  }
  return `blob:${sha256}`;
}

/** The text behind a `blob:` reference. */
export async function loadPayload(blobs: Blobs, ref: string): Promise<string> {
  if (!blobs.store) throw new Error(`record payload ${ref} is in the blob store, which is not configured (BLOB_STORE=none)`);
  const chunks: Buffer[] = [];
  for await (const chunk of await blobs.store.read(`records/${ref.slice('blob:'.length)}`)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
