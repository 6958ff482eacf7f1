import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Seals short secrets that must be shown again later (a lab's invitation code to its owner)
 * with AES-256-GCM. The key is made once per database, so every instance shares it.
 */
export class Sealer {
  constructor(private readonly key: Buffer) {}

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url')).join('.');
  }

  open(sealed: string): string {
    const [iv, tag, body] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
  }
}

/** Loads the sealing key, creating it on first start (race-safe across instances). */
export async function loadSealer(em: EntityManager): Promise<Sealer> {
  const connection = em.getConnection();
  await connection.execute(
    `insert into instance_secrets (name, value) values ('seal_key', ?) on conflict (name) do nothing`,
    [randomBytes(32).toString('base64')],
  );
  const [row] = await connection.execute<{ value: string }[]>(`select value from instance_secrets where name = 'seal_key'`);
  return new Sealer(Buffer.from(row.value, 'base64'));
}
