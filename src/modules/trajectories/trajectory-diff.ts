import type { EntityManager } from '@mikro-orm/postgresql';
import { diffLines } from 'diff';
import type { Blobs } from '../../blobs';
import { sqlOf } from '../../db/sql';
import { invalid } from '../../errors';
import type { Viewer } from '../auth/viewer';
import { loadPayload } from './payloads';
import * as repo from './trajectory.repository';
import { viewTrajectory } from './trajectory.service';

/**
 * Two trajectories side by side (docs/api/trajectories.md, "Compare"): a fork and its parent, or
 * any two the viewer can read. Records are matched by uuid (a fork keeps its parent's uuids for
 * what it copied), in order: a uuid on both sides is `same` (equal text) or `changed` (its text
 * differs, with a line diff), one on a side only is `removed` (base only) or `added` (other
 * only). The alignment is made from each record's uuid and text hash alone; texts are read for
 * the page asked for.
 */
export type DiffKind = 'same' | 'changed' | 'removed' | 'added';

export interface DiffRowView {
  index: number;
  kind: DiffKind;
  baseSeq: number | null;
  otherSeq: number | null;
  baseText: string | null;
  otherText: string | null;
  /** For `changed`: the two texts' line diff (pretty-printed JSON), unless they are too long to diff. */
  segments: { kind: 'same' | 'added' | 'removed'; text: string }[] | null;
}

/** The most records a side may have for a comparison (its uuids and hashes are held while it is made). */
export const MAX_DIFF_RECORDS = 100_000;
/** Texts longer than this are shown whole, not diffed line by line. */
const MAX_SEGMENT_DIFF_CHARS = 200_000;

function align(base: repo.RecordKey[], other: repo.RecordKey[]): Omit<DiffRowView, 'index' | 'baseText' | 'otherText' | 'segments'>[] {
  const inOther = new Map(other.map((key, at) => [key.uuid, at]));
  const inBase = new Set(base.map((key) => key.uuid));
  const rows: Omit<DiffRowView, 'index' | 'baseText' | 'otherText' | 'segments'>[] = [];
  let o = 0;
  for (const key of base) {
    const match = inOther.get(key.uuid);
    if (match === undefined || match < o) {
      rows.push({ kind: 'removed', baseSeq: key.seq, otherSeq: null });
      continue;
    }
    // What the other side added before this shared record.
    for (; o < match; o++) if (!inBase.has(other[o].uuid)) rows.push({ kind: 'added', baseSeq: null, otherSeq: other[o].seq });
    rows.push({ kind: other[o].hash === key.hash ? 'same' : 'changed', baseSeq: key.seq, otherSeq: other[o].seq });
    o++;
  }
  for (; o < other.length; o++) if (!inBase.has(other[o].uuid)) rows.push({ kind: 'added', baseSeq: null, otherSeq: other[o].seq });
  return rows;
}

const pretty = (text: string) => {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
};

async function textsAt(em: EntityManager, blobs: Blobs, sessionId: string, seqs: number[]): Promise<Map<number, string>> {
  const texts = new Map<number, string>();
  for (const row of await repo.recordTextsAt(sqlOf(em), sessionId, seqs))
    texts.set(row.seq, row.raw ?? (await loadPayload(blobs, row.payloadRef!)));
  return texts;
}

/**
 * The comparison of `otherId` against `baseId`, a page of its rows: from `from` (default: the row
 * before the first difference, so the page opens where they diverge), at most `first`.
 * @throws NOT_FOUND when the viewer cannot read either, VALIDATION_FAILED past `MAX_DIFF_RECORDS`
 */
export async function diffTrajectories(
  em: EntityManager,
  blobs: Blobs,
  viewer: Viewer,
  baseId: string,
  otherId: string,
  page: { from?: number | null; first: number },
) {
  const [base, other] = [await viewTrajectory(em, viewer, baseId), await viewTrajectory(em, viewer, otherId)];
  for (const side of [base, other])
    if (side.count > MAX_DIFF_RECORDS)
      throw invalid([
        {
          path: [side === base ? 'base' : 'other'],
          msg: `has more than ${MAX_DIFF_RECORDS.toLocaleString('en')} records to compare`,
          type: 'value_error',
        },
      ]);
  const rows = align(await repo.recordKeys(sqlOf(em), baseId), await repo.recordKeys(sqlOf(em), otherId));
  const divergence = rows.findIndex((row) => row.kind !== 'same');
  const from = Math.min(page.from ?? Math.max(0, divergence - 1), rows.length);
  const shown = rows.slice(from, from + page.first);
  const baseTexts = await textsAt(
    em,
    blobs,
    baseId,
    shown.flatMap((row) => (row.baseSeq === null ? [] : [row.baseSeq])),
  );
  const otherTexts = await textsAt(
    em,
    blobs,
    otherId,
    shown.flatMap((row) => (row.otherSeq === null ? [] : [row.otherSeq])),
  );
  const sides = await Promise.all(
    [base, other].map(async (side) => ({
      sessionId: side.id,
      title: side.title,
      records: side.count,
      ...(await repo.recordToolCounts(sqlOf(em), side.id)),
    })),
  );
  return {
    base: sides[0],
    other: sides[1],
    total: rows.length,
    counts: {
      same: rows.filter((row) => row.kind === 'same').length,
      changed: rows.filter((row) => row.kind === 'changed').length,
      removed: rows.filter((row) => row.kind === 'removed').length,
      added: rows.filter((row) => row.kind === 'added').length,
    },
    divergence: divergence < 0 ? null : { index: divergence, baseSeq: rows[divergence].baseSeq, otherSeq: rows[divergence].otherSeq },
    from,
    hasMore: from + shown.length < rows.length,
    rows: shown.map((row, at): DiffRowView => {
      const baseText = row.baseSeq === null ? null : (baseTexts.get(row.baseSeq) ?? null);
      const otherText = row.otherSeq === null ? null : (otherTexts.get(row.otherSeq) ?? null);
      const diffable =
        row.kind === 'changed' && baseText !== null && otherText !== null && baseText.length + otherText.length <= MAX_SEGMENT_DIFF_CHARS;
      return {
        index: from + at,
        ...row,
        baseText,
        otherText: row.kind === 'same' ? null : otherText,
        segments: diffable
          ? diffLines(pretty(baseText), pretty(otherText)).map((part) => ({
              kind: part.added ? ('added' as const) : part.removed ? ('removed' as const) : ('same' as const),
              text: part.value,
            }))
          : null,
      };
    }),
  };
}
