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

/**
 * A random 32-byte secret shared by every instance on this database, made on first use
 * (race-safe: the first insert wins and everyone reads the winner).
 */
export async function instanceSecret(em: EntityManager, name: string): Promise<Buffer> {
  const connection = em.getConnection();
  await connection.execute(`insert into instance_secrets (name, value) values (?, ?) on conflict (name) do nothing`, [name, randomBytes(32).toString('base64')]);
  const [row] = await connection.execute<{ value: string }[]>(`select value from instance_secrets where name = ?`, [name]);
  return Buffer.from(row.value, 'base64');
}

/** Loads the sealing key, creating it on first start. */
export async function loadSealer(em: EntityManager): Promise<Sealer> {
  return new Sealer(await instanceSecret(em, 'seal_key'));
}
