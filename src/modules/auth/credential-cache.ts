import type { StoredToken } from './token.repository';

/** The channel the database announces credential changes on (migration 20261130010010, credential_notices). */
export const CREDENTIAL_CHANNEL = 'labdesk_credentials';
/** How long a kept token is trusted without a notice: the backstop should a notice be lost unseen (a half-open connection). */
export const CREDENTIAL_TTL_MS = 10_000;
/** Tokens kept at most; past it the oldest kept goes first. */
const MAX_KEPT = 10_000;

/**
 * The tokens this instance has looked up recently, with their users, so that an authenticated
 * request costs no statement. Correct across instances because every change to a token, its
 * user or the user's memberships is announced by the database when it commits (the
 * `labdesk_credentials` channel, fed by triggers: docs/api/authentication.md "Credential cache"),
 * and each notice drops what it names before the next request is served from memory.
 *
 * Nothing is kept unless the instance is listening: after a lost connection everything is
 * dropped and tokens are read from the database until listening resumes. A lookup that a notice
 * overtook (read before the change committed, notice heard before the lookup returned) is
 * used once but not kept: `changes` counts notices, and one that moved during the read means
 * the row may be stale. Entries expire after `CREDENTIAL_TTL_MS` in any case.
 * The presented secret is still compared with the kept hash on every request.
 */
export class CredentialCache {
  private readonly kept = new Map<string, { token: StoredToken; until: number }>();
  private readonly tokensOfUser = new Map<string, Set<string>>();
  private changes = 0;
  private listening = false;

  constructor(private readonly clock: () => number = Date.now) {}

  /** The token `tokenId` from memory, else from `read` (kept when no notice came in meanwhile). */
  async lookup(tokenId: string, read: () => Promise<StoredToken | null>): Promise<StoredToken | null> {
    const entry = this.kept.get(tokenId);
    if (entry) {
      if (entry.until > this.clock()) return entry.token;
      this.forgetToken(tokenId);
    }
    const changesBefore = this.changes;
    const token = await read();
    if (token && this.listening && changesBefore === this.changes) this.keep(token);
    return token;
  }

  /** A notice: `userId`'s tokens (or, for `*`, all) changed. */
  changed(userId: string): void {
    this.changes++;
    if (userId === '*') return this.forgetAll();
    for (const tokenId of this.tokensOfUser.get(userId) ?? []) this.kept.delete(tokenId);
    this.tokensOfUser.delete(userId);
  }

  /** Notices may be missed from now on (connection lost): keep nothing until `resumed`. */
  suspended(): void {
    this.listening = false;
    this.forgetAll();
  }

  /** Listening (again): what is read from now on may be kept; a lookup begun before is not (a notice may have been missed). */
  resumed(): void {
    this.changes++;
    this.listening = true;
  }

  /** Whether the token `tokenId` is kept (tests). */
  has(tokenId: string): boolean {
    return this.kept.has(tokenId);
  }

  /** How many tokens are kept (tests). */
  get size(): number {
    return this.kept.size;
  }

  private keep(token: StoredToken) {
    if (this.kept.size >= MAX_KEPT) this.forgetToken(this.kept.keys().next().value!);
    // Shared by the requests it serves: frozen, so that none can change what the next one sees.
    Object.freeze(token.user);
    this.kept.set(token.id, { token: Object.freeze(token), until: this.clock() + CREDENTIAL_TTL_MS });
    const tokens = this.tokensOfUser.get(token.user.id);
    if (tokens) tokens.add(token.id);
    else this.tokensOfUser.set(token.user.id, new Set([token.id]));
  }

  private forgetToken(tokenId: string) {
    const entry = this.kept.get(tokenId);
    if (!entry) return;
    this.kept.delete(tokenId);
    const tokens = this.tokensOfUser.get(entry.token.user.id);
    tokens?.delete(tokenId);
    if (tokens?.size === 0) this.tokensOfUser.delete(entry.token.user.id);
  }

  private forgetAll() {
    this.kept.clear();
    this.tokensOfUser.clear();
  }
}
