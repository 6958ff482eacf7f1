/** Plans, their order, storage quotas and credit allowances (docs/api/admin.md, "Plans"). */
export const PLAN_CODES = ['free', 'pro', 'lab', 'enterprise'] as const;
export type PlanCode = (typeof PLAN_CODES)[number];

export const PLAN_SOURCES = ['paid', 'promo', 'trial', 'admin'] as const;
export type PlanSource = (typeof PLAN_SOURCES)[number];

const GIB = 1024 ** 3;
export const STORAGE_QUOTA_BY_PLAN: Record<PlanCode, number> = {
  free: 1 * GIB,
  pro: 20 * GIB,
  lab: 50 * GIB,
  enterprise: 200 * GIB,
};

/** Compute credits an account receives when it is created and whenever its plan changes (docs/api/admin.md, "Plans"). */
export const CREDIT_ALLOWANCE_BY_PLAN: Record<PlanCode, number> = { free: 10, pro: 100, lab: 200, enterprise: 1000 };

const RANK: Record<PlanCode, number> = { free: 0, pro: 1, lab: 2, enterprise: 3 };

export const higherPlan = (a: PlanCode, b: PlanCode): PlanCode => (RANK[a] >= RANK[b] ? a : b);
export const atLeast = (tier: PlanCode, floor: PlanCode) => RANK[tier] >= RANK[floor];

/**
 * Effective tier: the highest of the user's unexpired plan and `lab` while the user is an
 * active member of an active lab.
 */
export function effectiveTier(
  user: { planCode: string; planExpiresAt?: Date | null },
  activeInActiveLab: boolean,
  now = new Date(),
): PlanCode {
  const own: PlanCode = user.planExpiresAt && user.planExpiresAt <= now ? 'free' : (user.planCode as PlanCode);
  return activeInActiveLab ? higherPlan(own, 'lab') : own;
}
