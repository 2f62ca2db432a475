import { z } from 'zod';

export const PlanSchema = z.enum(['sandbox', 'free', 'pro', 'enterprise']);
export type Plan = z.infer<typeof PlanSchema>;

/**
 * What a key may spend: requests per one-minute window, and units per UTC day (null: no
 * per-key quota, only the global daily budget).
 */
export const KeyLimits = z.object({
  ratePerMinute: z.number().int().min(1),
  dailyUnits: z.number().int().min(1).nullable(),
});
export type KeyLimits = z.infer<typeof KeyLimits>;

/** Published plan limits (SPEC.md Limits; docs/architecture.md the daily quotas). Enterprise quotas are by contract. */
export const PlanLimits: Record<Plan, KeyLimits> = {
  sandbox: { ratePerMinute: 60, dailyUnits: 10_000 },
  free: { ratePerMinute: 30, dailyUnits: 50_000 },
  pro: { ratePerMinute: 300, dailyUnits: 2_000_000 },
  enterprise: { ratePerMinute: 2000, dailyUnits: null },
};

/**
 * Operator overrides of an enterprise key's limits (the contract's terms, or a benchmark key that
 * must never be limited). Only enterprise keys carry them: the other plans' limits are published.
 */
export const KeyLimitOverrides = z
  .object({
    ratePerMinute: z.number().int().min(1).max(100_000_000).optional(),
    dailyUnits: z.number().int().min(1).max(1e12).optional(),
  })
  .strict();
export type KeyLimitOverrides = z.infer<typeof KeyLimitOverrides>;

/** An API key as stored (by the SHA-256 of its plaintext, which is never kept). */
export const ApiKeyBody = z.object({
  orgId: z.string(),
  plan: PlanSchema,
  kind: z.enum(['test', 'live']),
  /** first characters of the key, for display (never enough to use it) */
  displayPrefix: z.string(),
  /** its last four characters, for display (keys minted before the console have none) */
  lastFour: z.string().optional(),
  /** a label its creator gave it */
  name: z.string().optional(),
  createdAt: z.string(),
  revokedAt: z.string().optional(),
  overrides: KeyLimitOverrides.optional(),
});
export type ApiKeyBody = z.infer<typeof ApiKeyBody>;

/** The limits a key runs under: its plan's, with the operator's overrides on top. */
export function limitsOf(key: { plan: Plan; overrides?: KeyLimitOverrides }): KeyLimits {
  const plan = PlanLimits[key.plan];
  return {
    ratePerMinute: key.overrides?.ratePerMinute ?? plan.ratePerMinute,
    dailyUnits: key.overrides?.dailyUnits ?? plan.dailyUnits,
  };
}
