import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { readRow, rowOf } from '../../infra/rows.ts';
import type { Store } from '../../infra/store/types.ts';
import type { KeyService, Org } from '../../infra/keys.ts';
import { createInvitations } from './invitations.ts';
import {
  AuditRow,
  CHALLENGE_ISSUED,
  CHALLENGE_USED,
  ChallengeRow,
  IdentityRow,
  MemberRow,
  SESSION_CREATED,
  SESSION_REVOKED,
  SessionRow,
} from './rows.ts';
import type { AuditEntry, Challenge, Member, Role, Session } from './rows.ts';
import { createAuditWriter } from './audit.ts';

/** added by an owner and never accepted (before members joined by invitation) */
const unaccepted = (m: Member) => m.addedBy !== null && m.inviteId === undefined;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const id = (prefix: string, bytes = 12) => `${prefix}_${randomBytes(bytes).toString('hex')}`;

/** what the console knows of the signed-in caller */
export interface SignedIn {
  session: Session;
  member: Member;
  org: Org;
}

/** who did a change, and from where (the audit log) */
export interface Actor {
  member: Member;
  ip: string | null;
}

export interface ConsoleAccountsDeps {
  store: Store;
  keys: KeyService;
  /** how long a session lasts (ms) */
  sessionMs: number;
}

/** the console's sessions: opened at sign-in, found by their cookie, listed and revoked per organisation */
function createSessions(store: Store, keys: KeyService, sessionMs: number) {
  const sessions = {
    /** a new session; the cookie value is `orgId.sessionId.secret` (only the secret's hash is kept) */
    async openSession(member: Member, method: Session['method'], now: number, meta: { ip: string | null; userAgent: string | null }): Promise<{ session: Session; cookie: string }> {
      const secret = randomBytes(32).toString('base64url');
      const session: Session = {
        sessionId: id('ses'),
        orgId: member.orgId,
        memberId: member.memberId,
        identity: member.identity,
        secretHash: sha256(secret),
        method,
        createdAt: now,
        expiresAt: now + sessionMs,
        revokedAt: null,
        userAgent: meta.userAgent?.slice(0, 200) ?? null,
        ip: meta.ip,
      };
      await store.upsert(SessionRow.table, [{ ...rowOf(SessionRow, session, SESSION_CREATED, member.orgId, session.sessionId), expiresAt: session.expiresAt }]);
      return { session, cookie: `${member.orgId}.${session.sessionId}.${secret}` };
    },

    /** the session a cookie names, while it is neither expired nor revoked, with its member and organisation */
    async session(cookie: string | undefined, now: number): Promise<SignedIn | undefined> {
      const m = cookie ? /^(org_[0-9a-f]+)\.(ses_[0-9a-f]+)\.([A-Za-z0-9_-]{43})$/.exec(cookie) : null;
      if (!m) return undefined;
      const [, orgId, sessionId, secret] = m as unknown as [string, string, string, string];
      const session = await readRow(store, SessionRow, orgId, sessionId);
      if (!session || session.revokedAt !== null || session.expiresAt <= now) return undefined;
      const a = Buffer.from(session.secretHash, 'hex');
      const b = Buffer.from(sha256(secret), 'hex');
      if (a.length !== b.length || !timingSafeEqual(a, b)) return undefined;
      const [member, org] = await Promise.all([readRow(store, MemberRow, orgId, session.memberId), keys.getOrg(orgId)]);
      if (!member || !org || unaccepted(member)) return undefined;
      return { session, member, org };
    },

    async sessions(orgId: string, now: number): Promise<Session[]> {
      const rows = await store.list(SessionRow.table, { prefix: SessionRow.orgPrefix(orgId) });
      const out: Session[] = [];
      for (const r of rows) {
        const s = SessionRow.codec.decode(r.body);
        if (s && s.revokedAt === null && s.expiresAt > now) out.push(s);
      }
      return out.sort((x, y) => y.createdAt - x.createdAt);
    },

    /** false when there is no such open session in the organisation */
    async revokeSession(orgId: string, sessionId: string, now: number): Promise<boolean> {
      const s = await readRow(store, SessionRow, orgId, sessionId);
      if (!s || s.revokedAt !== null || s.expiresAt <= now) return false;
      await store.upsert(SessionRow.table, [{ ...rowOf(SessionRow, { ...s, revokedAt: now }, SESSION_REVOKED, orgId, sessionId), expiresAt: s.expiresAt }]);
      return true;
    },

  };
  return sessions;
}

/** sign-in challenges (a SIWE nonce, an e-mail link's token), each good for one use */
function createChallenges(store: Store) {
  const using = new Set<string>();
  return {
    async issueChallenge(kind: Challenge['kind'], key: string, email: string | null, now: number, ttlMs: number): Promise<void> {
      const c: Challenge = { kind, state: 'issued', email, issuedAt: now, expiresAt: now + ttlMs };
      await store.upsert(ChallengeRow.table, [{ ...rowOf(ChallengeRow, c, CHALLENGE_ISSUED, kind, key), expiresAt: c.expiresAt }]);
    },

    /** the challenge, marked used, when it was issued, unused and unexpired; otherwise undefined (a replay) */
    async useChallenge(kind: Challenge['kind'], key: string, now: number): Promise<Challenge | undefined> {
      const rowKey = ChallengeRow.key(kind, key);
      if (using.has(rowKey)) return undefined;
      using.add(rowKey);
      try {
        const c = await readRow(store, ChallengeRow, kind, key);
        if (!c || c.state !== 'issued' || c.expiresAt <= now) return undefined;
        await store.upsert(ChallengeRow.table, [{ ...rowOf(ChallengeRow, { ...c, state: 'used' }, CHALLENGE_USED, kind, key), expiresAt: c.expiresAt }]);
        return c;
      } finally {
        // the used row is written: a later attempt reads it
        using.delete(rowKey);
      }
    },

    /** e-mail links are looked up by the hash of their token */
    tokenKey: sha256,
  };
}

/**
 * The identity's first sign-in: the member it is linked to, or a new sandbox organisation with it
 * as the owner. A member an owner added before members joined by invitation never chose that
 * organisation: its membership becomes the invitation it should have been, and its sign-in is its own.
 */
async function firstSignIn(m: Membership, identity: string, now: number, ip: string | null): Promise<{ member: Member; org: Org; created: boolean }> {
  const { store, keys } = m;
  const link = await readRow(store, IdentityRow, identity);
  if (link) {
    const member = await readRow(store, MemberRow, link.orgId, link.memberId);
    const org = await keys.getOrg(link.orgId);
    if (member && org && !unaccepted(member)) return { member, org, created: false };
    if (member && org) {
      const adder = member.addedBy === null ? undefined : await readRow(store, MemberRow, member.orgId, member.addedBy);
      const by = adder ?? member;
      await m.removeMember(org.id, member.memberId, now);
      const inv = await m.invitations.invite(org, member.identity, member.role, by, now);
      await m.audit(org.id, { member: by, ip }, 'member.invited', inv.inviteId, { identity: member.identity, role: member.role, unacceptedAddition: true }, now);
    }
  }
  // first sign-in: a sandbox organisation and its owner, no invite and no approval
  const org = await keys.createOrg(identity.replace(/^(wallet|email):/, ''));
  const member: Member = { memberId: id('mem', 8), orgId: org.id, identity, role: 'owner', createdAt: now, addedBy: null };
  await store.upsert(MemberRow.table, [rowOf(MemberRow, member, now, org.id, member.memberId)]);
  await store.upsert(IdentityRow.table, [rowOf(IdentityRow, { identity, orgId: org.id, memberId: member.memberId }, now, identity)]);
  await m.audit(org.id, { member, ip }, 'org.created', org.id, { plan: 'sandbox' }, now);
  return { member, org, created: true };
}

type Membership = ReturnType<typeof createMembership> & { store: Store; keys: KeyService; invitations: ReturnType<typeof createInvitations> };

/** organisations' members: who an identity signs in as, joining and leaving, and the audit log of their acts */
function createMembership(store: Store, sessions: ReturnType<typeof createSessions>) {
  const writeAudit = createAuditWriter(store);
  return {
    async audit(orgId: string, actor: Actor, action: string, target: string | null, detail: Record<string, unknown> | null, at: number): Promise<AuditEntry> {
      return writeAudit(orgId, { memberId: actor.member.memberId, identity: actor.member.identity }, actor.ip, action, target, detail, at);
    },

    /** whether the identity signs in to an organisation already (otherwise its sign-in creates one) */
    async linked(identity: string): Promise<boolean> {
      return (await readRow(store, IdentityRow, identity)) !== undefined;
    },

    async members(orgId: string): Promise<Member[]> {
      const rows = await store.list(MemberRow.table, { prefix: MemberRow.orgPrefix(orgId) });
      return rows.flatMap((r) => MemberRow.codec.decode(r.body) ?? []).sort((a, b) => a.createdAt - b.createdAt);
    },

    /**
     * The identity becomes a member of the organisation with the role (an accepted invitation):
     * its sign-ins land there from now on. Its former membership is the caller's to remove first.
     */
    async join(orgId: string, identity: string, role: Role, accepted: { inviteId: string; addedBy: string }, now: number): Promise<Member> {
      const member: Member = { memberId: id('mem', 8), orgId, identity, role, createdAt: now, ...accepted };
      await store.upsert(MemberRow.table, [rowOf(MemberRow, member, now, orgId, member.memberId)]);
      await store.upsert(IdentityRow.table, [rowOf(IdentityRow, { identity, orgId, memberId: member.memberId }, now, identity)]);
      return member;
    },

    /**
     * Drops a member at once: its row, its identity's link (its next sign-in creates an
     * organisation of its own) and its open sessions. Undefined when there is no such member.
     */
    async removeMember(orgId: string, memberId: string, now: number): Promise<{ member: Member; revokedSessions: number } | undefined> {
      const member = await readRow(store, MemberRow, orgId, memberId);
      if (!member) return undefined;
      let revokedSessions = 0;
      for (const s of await sessions.sessions(orgId, now)) if (s.memberId === memberId && (await sessions.revokeSession(orgId, s.sessionId, now))) revokedSessions++;
      await store.upsert(MemberRow.table, [{ ...rowOf(MemberRow, member, now, orgId, memberId), deleted: true }]);
      const link = await readRow(store, IdentityRow, member.identity);
      if (link?.orgId === orgId && link.memberId === memberId) {
        await store.upsert(IdentityRow.table, [{ ...rowOf(IdentityRow, link, now, member.identity), deleted: true }]);
      }
      return { member, revokedSessions };
    },

    async auditLog(orgId: string, limit: number): Promise<AuditEntry[]> {
      const rows = await store.list(AuditRow.table, { prefix: AuditRow.orgPrefix(orgId), limit });
      return rows.flatMap((r) => AuditRow.codec.decode(r.body) ?? []);
    },
  };
}

/**
 * Organisations' members, sessions, sign-in challenges and the audit log, all in the store (an
 * API restart loses nothing; every API process sees the same).
 *
 * Concurrency: a challenge is used once and a first sign-in creates one organisation within a
 * process (in-flight maps); two processes racing on the same nonce in the same few milliseconds is
 * the one interleaving the store's versioned rows cannot order (as the agent API's replay guard).
 */
export function createConsoleAccounts(deps: ConsoleAccountsDeps) {
  const { store, keys } = deps;
  const sessions = createSessions(store, keys, deps.sessionMs);
  const membership: Membership = { ...createMembership(store, sessions), store, keys, invitations: createInvitations(store) };
  const signingIn = new Map<string, Promise<{ member: Member; org: Org; created: boolean }>>();
  return {
    ...sessions,
    ...createChallenges(store),
    audit: membership.audit,
    linked: membership.linked,
    members: membership.members,
    join: membership.join,
    removeMember: membership.removeMember,
    auditLog: membership.auditLog,

    /** the member an identity signs in as; its first sign-in creates a sandbox organisation with it as the owner */
    async signIn(identity: string, now: number, ip: string | null): Promise<{ member: Member; org: Org; created: boolean }> {
      let flight = signingIn.get(identity);
      if (!flight) {
        flight = firstSignIn(membership, identity, now, ip).finally(() => signingIn.delete(identity));
        signingIn.set(identity, flight);
      }
      return flight;
    },
  };
}

export type ConsoleAccounts = ReturnType<typeof createConsoleAccounts>;
