import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlOf } from './sql';

/**
 * Seals short secrets that must be shown again later (a lab's invitation code to its owner)
 * with AES-256-GCM under one key; opens with that key or an earlier one (`previousKeys`), so
 * secrets sealed before an operator moved the key out of the database still open.
 */
export class Sealer {
  constructor(
    private readonly key: Buffer,
    private readonly previousKeys: Buffer[] = [],
  ) {}

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url')).join('.');
  }

  /**
   * What was opened lately, by its sealed text: a lab's page opens its invitation code on every
   * view, and a decipher costs more than the rest of the lab's presentation. Bounded; the key is
   * in this process anyway.
   */
  private readonly opened = new Map<string, string>();

  /** @throws when no key opens it (GCM authenticates: a wrong key fails, it never yields garbage) */
  open(sealed: string): string {
    let plain = this.opened.get(sealed);
    if (plain === undefined) {
      plain = this.decipher(sealed);
      if (this.opened.size >= 1000) this.opened.clear();
      this.opened.set(sealed, plain);
    }
    return plain;
  }

  private decipher(sealed: string): string {
    const [iv, tag, body] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
    const [first, ...rest] = [this.key, ...this.previousKeys];
    const attempt = (key: Buffer) => {
      const decipher = createDecipheriv('aes-256-gcm', key, iv);
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    };
    try {
      return attempt(first);
    } catch (error) {
      for (const key of rest) {
        try {
          return attempt(key);
        } catch {
          // not this one either
        }
      }
      throw error;
    }
  }
}

/**
 * A random 32-byte secret shared by every instance on this database, made on first use
 * (race-safe: the first insert wins and everyone reads the winner).
 */
export async function instanceSecret(em: EntityManager, name: string): Promise<Buffer> {
  await sqlOf(em)(`insert into instance_secrets (name, value) values (?, ?) on conflict (name) do nothing`, [
    name,
    randomBytes(32).toString('base64'),
  ]);
  return (await storedSecret(em, name))!;
}

async function storedSecret(em: EntityManager, name: string): Promise<Buffer | undefined> {
  const [row] = await sqlOf(em)<{ value: string }>(`select value from instance_secrets where name = ?`, [name]);
  return row && Buffer.from(row.value, 'base64');
}

/**
 * The sealing key: the operator's (`SEAL_KEY` or `SEAL_KEY_FILE`), so that a copy of the
 * database alone does not reveal invitation codes; else one made in the database on first start
 * (every instance shares it, nothing to configure). With an operator's key, a key already in the
 * database still opens what it sealed, and no new one is made there.
 */
export async function loadSealer(em: EntityManager, operatorKey: Buffer | undefined): Promise<Sealer> {
  if (!operatorKey) return new Sealer(await instanceSecret(em, SEAL_KEY_NAME));
  const databaseKey = await storedSecret(em, SEAL_KEY_NAME);
  return new Sealer(operatorKey, databaseKey ? [databaseKey] : []);
}

const SEAL_KEY_NAME = 'seal_key';
