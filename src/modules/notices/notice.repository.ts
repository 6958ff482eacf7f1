import { dateOf, type Query } from '../../db/sql';

export interface NoticeRow {
  id: string;
  kind: string;
  text: string;
  path: string;
  createdAt: Date;
  readAt: Date | null;
}

const COLUMNS = `n.id, n.kind, n.text, n.path, n.created_at as "createdAt", n.read_at as "readAt"`;

/** Writes a notice and answers where its mail would go (the user's address, when active). */
export async function insertNotice(
  q: Query,
  notice: { id: string; userId: string; kind: string; text: string; path: string },
): Promise<{ email: string | null }> {
  const [row] = await q<{ email: string | null }>(
    `with added as (insert into notices (id, user_id, kind, text, path) values (?, ?, ?, ?, ?) returning user_id)
     select u.email from added join users u on u.id = added.user_id and not u.disabled`,
    [notice.id, notice.userId, notice.kind, notice.text, notice.path],
  );
  return { email: row?.email ?? null };
}

/** The user's newest notices, and how many of all of theirs are unread. */
export async function noticesOf(q: Query, userId: string, limit: number): Promise<{ items: NoticeRow[]; unread: number }> {
  const items = await q<NoticeRow>(`select ${COLUMNS} from notices n where n.user_id = ? order by n.created_at desc, n.id desc limit ?`, [
    userId,
    limit,
  ]);
  const [count] = await q<{ n: number }>(`select count(*)::int as n from notices where user_id = ? and read_at is null`, [userId]);
  return {
    items: items.map((row) => ({ ...row, createdAt: dateOf(row.createdAt)!, readAt: dateOf(row.readAt) })),
    unread: count.n,
  };
}

/** Marks the user's notices read (these, or all of them when `ids` is null); answers how many changed. */
export async function markRead(q: Query, userId: string, ids: readonly string[] | null): Promise<number> {
  const rows = await q(
    `update notices set read_at = now() where user_id = ? and read_at is null${ids ? ' and id = any(?::text[])' : ''} returning id`,
    ids ? [userId, [...ids]] : [userId],
  );
  return rows.length;
}

/** Marks read the person's notices that lead to `path`: they acted on what those were about. */
export const markReadLeadingTo = (q: Query, userId: string, path: string) =>
  q(`update notices set read_at = now() where user_id = ? and read_at is null and path = ?`, [userId, path]);

/** Notices read more than `days` ago go (a person's list stays short). */
export const forgetReadNotices = (q: Query, days: number) =>
  q(`delete from notices where read_at < now() - make_interval(days => ?)`, [days]);
