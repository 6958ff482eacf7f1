import type { EntityManager } from '@mikro-orm/postgresql';
import { checks } from '../../validation';
import { readSegmentation, SegmentationRow } from './segmentation.repository';

/** `limit` of segmentation: how many institutions and unresolved strings are listed (spec limits table). */
export const SEGMENTATION_LIMIT = { max: 200, default: 40 };
export const DEFAULT_SEGMENTATION_DOMAIN = 'omics';

/** The label of users whose institution the registry did not resolve, in `by_tier` and `by_type`. */
export const UNRESOLVED = 'unresolved';

export type Segmentation = Omit<SegmentationRow, 'byTier' | 'byType'> & {
  domain: string;
  byTier: (Omit<SegmentationRow['byTier'][number], 'tier'> & { tier: string })[];
  byType: (Omit<SegmentationRow['byType'][number], 'type'> & { type: string })[];
};

/** Users, paying users and granted users of `domain` over institution tier, type and name. @throws VALIDATION_FAILED */
export async function segmentation(em: EntityManager, args: { domain: string; limit: number }, now: Date): Promise<Segmentation> {
  checks().text(['domain'], args.domain, { min: 1, max: 100 }).done();
  const row = await readSegmentation(em, args.domain, args.limit, now);
  return {
    domain: args.domain,
    ...row,
    byTier: row.byTier.map((t) => ({ ...t, tier: t.tier ?? UNRESOLVED })),
    byType: row.byType.map((t) => ({ ...t, type: t.type ?? UNRESOLVED })),
  };
}
