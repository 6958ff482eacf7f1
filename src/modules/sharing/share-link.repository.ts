import { dateOf, type Query } from '../../db/sql';

/** A share link as the domain reads it (never its token: only its hash is kept). */
export interface ShareLinkRow {
  id: string;
  sessionId: string;
  createdBy: string;
  maskEmails: boolean;
  includeFigures: boolean;
  expiresAt: Date | null;
  revokedAt: Date | null;
  views: number;
  lastViewedAt: Date | null;
  createdAt: Date;
}

const COLUMNS = `l.id, l.session_id as "sessionId", l.created_by as "createdBy", l.mask_emails as "maskEmails",
  l.include_figures as "includeFigures", l.expires_at as "expiresAt", l.revoked_at as "revokedAt", l.views, l.last_viewed_at as "lastViewedAt", l.created_at as "createdAt"`;

/** The driver answers timestamps as text. */
const linkOf = (row: ShareLinkRow): ShareLinkRow => ({
  ...row,
  expiresAt: dateOf(row.expiresAt),
  revokedAt: dateOf(row.revokedAt),
  lastViewedAt: dateOf(row.lastViewedAt),
  createdAt: dateOf(row.createdAt)!,
});

/** SQL: the link `l` opens (not revoked, not expired, its maker's account not disabled). */
const OPEN = `l.revoked_at is null and (l.expires_at is null or l.expires_at > now())
  and exists (select 1 from users u where u.id = l.created_by and not u.disabled)`;

export async function insertShareLink(
  q: Query,
  link: Pick<ShareLinkRow, 'id' | 'sessionId' | 'createdBy' | 'maskEmails' | 'includeFigures' | 'expiresAt'> & { tokenHash: string },
): Promise<ShareLinkRow> {
  const [row] = await q<ShareLinkRow>(
    `insert into trajectory_share_links as l (id, session_id, created_by, token_hash, mask_emails, include_figures, expires_at)
     values (?, ?, ?, ?, ?, ?, ?) returning ${COLUMNS}`,
    [link.id, link.sessionId, link.createdBy, link.tokenHash, link.maskEmails, link.includeFigures, link.expiresAt],
  );
  return linkOf(row);
}

/** The trajectory's links, newest first (revoked and expired ones too: the list says so). */
export const linksOf = async (q: Query, sessionId: string) =>
  (
    await q<ShareLinkRow>(`select ${COLUMNS} from trajectory_share_links l where l.session_id = ? order by l.created_at desc, l.id`, [
      sessionId,
    ])
  ).map(linkOf);

/** The trajectory's links that still open. */
export async function countOpenLinks(q: Query, sessionId: string): Promise<number> {
  const [row] = await q<{ n: number }>(`select count(*)::int as n from trajectory_share_links l where l.session_id = ? and ${OPEN}`, [
    sessionId,
  ]);
  return row.n;
}

export async function findLink(q: Query, id: string): Promise<ShareLinkRow | null> {
  const [row] = await q<ShareLinkRow>(`select ${COLUMNS} from trajectory_share_links l where l.id = ?`, [id]);
  return row ? linkOf(row) : null;
}

/** Revokes the link (once: a second revoke keeps the first time). */
export async function revokeLink(q: Query, id: string): Promise<ShareLinkRow> {
  const [row] = await q<ShareLinkRow>(
    `update trajectory_share_links l set revoked_at = coalesce(revoked_at, now()) where l.id = ? returning ${COLUMNS}`,
    [id],
  );
  return linkOf(row);
}

/** The open link with this token hash; `counted` also counts a view of it, in the same statement. */
export async function openLink(q: Query, tokenHash: string, counted: boolean): Promise<ShareLinkRow | null> {
  const [row] = counted
    ? await q<ShareLinkRow>(
        `update trajectory_share_links l set views = views + 1, last_viewed_at = now() where l.token_hash = ? and ${OPEN} returning ${COLUMNS}`,
        [tokenHash],
      )
    : await q<ShareLinkRow>(`select ${COLUMNS} from trajectory_share_links l where l.token_hash = ? and ${OPEN}`, [tokenHash]);
  return row ? linkOf(row) : null;
}
