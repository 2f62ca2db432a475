import { z } from 'zod';
import { jsonCodec } from '../../infra/codec.ts';
import { newestFirstMs } from '../../infra/rows.ts';
import type { RowDef } from '../../infra/rows.ts';
import { Tables } from '../../infra/store/types.ts';

/**
 * The partner console's rows in the store: members, identities, sessions, sign-in challenges and
 * the audit log. Organisations are the key service's (infra/keys.ts), as are the keys.
 */

export const Role = z.enum(['owner', 'member']);
export type Role = z.infer<typeof Role>;

/** `wallet:<lowercase address>` or `email:<lowercase address>` */
export const IdentityText = z.string().regex(/^(wallet:0x[0-9a-f]{40}|email:[^\s@]+@[^\s@]+)$/);

export const Member = z.object({
  memberId: z.string(),
  orgId: z.string(),
  identity: IdentityText,
  role: Role,
  /** ms since epoch */
  createdAt: z.number(),
  /** the member who added it; null for the owner who created the organisation */
  addedBy: z.string().nullable(),
  /**
   * the invitation it accepted; none for the owner who created the organisation, and for a member
   * added before members joined by invitation (never accepted: accounts.ts does not honour it)
   */
  inviteId: z.string().optional(),
});
export type Member = z.infer<typeof Member>;

export const MemberRow: RowDef<Member, [orgId: string, memberId: string]> & { orgPrefix(orgId: string): string } = {
  table: Tables.consoleMembers,
  orgPrefix: (orgId) => `${orgId}:`,
  key: (orgId, memberId) => `${orgId}:${memberId}`,
  codec: jsonCodec(Member),
};

/** who an identity signs in as */
export const IdentityLink = z.object({ identity: IdentityText, orgId: z.string(), memberId: z.string() });
export type IdentityLink = z.infer<typeof IdentityLink>;

export const IdentityRow: RowDef<IdentityLink, [identity: string]> = {
  table: Tables.consoleIdentities,
  key: (identity) => identity,
  codec: jsonCodec(IdentityLink),
};

export const Session = z.object({
  sessionId: z.string(),
  orgId: z.string(),
  memberId: z.string(),
  identity: IdentityText,
  /** SHA-256 of the cookie's secret part: the secret itself is never stored */
  secretHash: z.string(),
  /** the CSRF token's secret lives in its own cookie (@fastify/csrf-protection); this is how the session signed in */
  method: z.enum(['siwe', 'email']),
  /** ms since epoch */
  createdAt: z.number(),
  expiresAt: z.number(),
  revokedAt: z.number().nullable(),
  userAgent: z.string().nullable(),
  ip: z.string().nullable(),
});
export type Session = z.infer<typeof Session>;

/** versions of a session row: created, then revoked (a revocation outranks the creation) */
export const SESSION_CREATED = 1;
export const SESSION_REVOKED = 2;

export const SessionRow: RowDef<Session, [orgId: string, sessionId: string]> & { orgPrefix(orgId: string): string } = {
  table: Tables.consoleSessions,
  orgPrefix: (orgId) => `${orgId}:`,
  key: (orgId, sessionId) => `${orgId}:${sessionId}`,
  codec: jsonCodec(Session),
};

export const Challenge = z.object({
  kind: z.enum(['siwe', 'email']),
  state: z.enum(['issued', 'used']),
  /** e-mail links: the address the link was sent to */
  email: z.string().nullable(),
  /** ms since epoch */
  issuedAt: z.number(),
  expiresAt: z.number(),
});
export type Challenge = z.infer<typeof Challenge>;

/** versions of a challenge row: issued, then used (a use outranks the issue, so it is never issued again) */
export const CHALLENGE_ISSUED = 1;
export const CHALLENGE_USED = 2;

export const ChallengeRow: RowDef<Challenge, [kind: Challenge['kind'], id: string]> = {
  table: Tables.consoleChallenges,
  key: (kind, id) => `${kind}:${id}`,
  codec: jsonCodec(Challenge),
};

export const AuditEntry = z.object({
  id: z.string(),
  orgId: z.string(),
  /** ms since epoch */
  at: z.number(),
  /** who did it: a member of the organisation, or an API key of it (`apikey:<key id>`, identity `apikey:<prefix>…<last four>`) */
  actor: z.object({ memberId: z.string(), identity: z.string() }),
  /** what happened, e.g. `key.created`, `org.went_live` */
  action: z.string(),
  /** what it was done to (a key's prefix, a session id, an endpoint id) */
  target: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()).nullable(),
  ip: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

/**
 * keyed by organisation, then newest first (a limited list takes the newest): the inverted time,
 * then the inverted order of entries written in the same millisecond by this process
 */
export const AuditRow: RowDef<AuditEntry, [orgId: string, atMs: number, seq: number, id: string]> & { orgPrefix(orgId: string): string } = {
  table: Tables.consoleAudit,
  orgPrefix: (orgId) => `${orgId}:`,
  key: (orgId, atMs, seq, id) => `${orgId}:${newestFirstMs(atMs)}:${String(999_999 - seq).padStart(6, '0')}:${id}`,
  codec: jsonCodec(AuditEntry),
};

export const Invitation = z.object({
  inviteId: z.string(),
  orgId: z.string(),
  /** the organisation's name when invited, for the invitee who cannot read the organisation */
  orgName: z.string(),
  identity: IdentityText,
  role: Role,
  /** the owner who invited */
  invitedBy: z.object({ memberId: z.string(), identity: z.string() }),
  /** ms since epoch */
  createdAt: z.number(),
  expiresAt: z.number(),
  state: z.enum(['pending', 'accepted', 'declined', 'revoked']),
  closedAt: z.number().nullable(),
});
export type Invitation = z.infer<typeof Invitation>;

/** versions of an invitation's rows: pending, then closed (accepted, declined or revoked), which outranks it */
export const INVITATION_PENDING = 1;
export const INVITATION_CLOSED = 2;

/** one invitation under two keys: the organisation's list and the invitee's */
export const InvitationRow = {
  table: Tables.consoleInvitations,
  orgPrefix: (orgId: string) => `org:${orgId}:`,
  toPrefix: (identity: string) => `to:${identity}:`,
  keys: (inv: Pick<Invitation, 'orgId' | 'identity' | 'inviteId'>) => [`org:${inv.orgId}:${inv.inviteId}`, `to:${inv.identity}:${inv.inviteId}`],
  codec: jsonCodec(Invitation),
};
