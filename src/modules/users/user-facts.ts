/**
 * A user's columns as read (all but the password hash): the caller of a request as plain data,
 * which the credential cache keeps between requests (auth/credential-cache.ts). A loaded `User`
 * entity is one too. Read-only: a change is written through the entity or SQL, never here.
 */
export interface UserFacts {
  readonly id: string;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly email: string;
  readonly name: string;
  readonly phone: string | null;
  readonly planCode: string;
  readonly planSource: string;
  readonly planExpiresAt: Date | null;
  readonly isAdmin: boolean;
  readonly disabled: boolean;
  readonly domain: string;
  readonly institution: string | null;
  readonly institutionTier: string | null;
  readonly institutionType: string | null;
  readonly institutionName: string | null;
  /** Admin override; null = the plan's quota. */
  readonly storageQuotaBytes: number | null;
  readonly storageUsedBytes: number;
  readonly lastActiveAt: Date | null;
}
