import { z } from 'zod';
import { Verdict } from '../schemas/common.ts';

/**
 * Tables the engine's derivations join with, built from compacted topics and passed to the
 * workers explicitly (never process-global): each engine instance folds its own copy.
 *
 * The wallet-grades table holds each wallet's latest grade (a table join, as a Kafka Streams
 * KTable): a token snapshot reads its buyers' grades from it, and a grade change re-derives the
 * tokens the wallet recently bought. Once the log is folded, every token snapshot equals the one
 * derived from the final grades, whatever the batches, the partitions' interleaving or the
 * number of engine processes. (A join as of event time would need watermarks across the token
 * partitions that feed the wallet stream; see engine/README.md.)
 */
export const WalletGradeRecord = z.object({
  chain: z.string(),
  wallet: z.string(),
  grade: Verdict,
  /** event time of the wallet snapshot that carried the grade */
  asOfTs: z.number(),
});
export type WalletGradeRecord = z.infer<typeof WalletGradeRecord>;

export function encodeGrade(r: WalletGradeRecord): string {
  return JSON.stringify(r);
}
export function decodeGrade(v: string): WalletGradeRecord | undefined {
  const r = WalletGradeRecord.safeParse(JSON.parse(v));
  return r.success ? r.data : undefined;
}

export interface GradeTable {
  /** fold a record of the wallet-grades topic; true when the wallet's grade changed */
  apply(r: WalletGradeRecord): boolean;
  /** the wallet's latest grade, undefined before the wallet was first graded */
  gradeOf(chain: string, wallet: string): Verdict | undefined;
}

export function createGradeTable(): GradeTable {
  const rows = new Map<string, Verdict>();
  return {
    apply(r) {
      const key = `${r.chain}:${r.wallet}`;
      if (rows.get(key) === r.grade) return false;
      rows.set(key, r.grade);
      return true;
    },
    gradeOf: (chain, wallet) => rows.get(`${chain}:${wallet}`),
  };
}
