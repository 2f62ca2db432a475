import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerHookHandler } from 'fastify';
import { isAddress } from 'viem';
import { z } from 'zod';
import { ApiError } from '../../schemas/errors.ts';
import type { KeyService, Org } from '../../infra/keys.ts';
import { requestBody } from '../plugins/errors.ts';
import { parseInput } from '../validate.ts';
import type { Actor, ConsoleAccounts, SignedIn } from './accounts.ts';
import type { Invitations } from './invitations.ts';
import type { Invitation, Member, Session } from './rows.ts';

export const Email = z
  .string()
  .max(254)
  .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'must be an e-mail address')
  .transform((v) => v.toLowerCase());

/** a member's identity from what an owner typed: an e-mail address or a wallet address */
export function identityOf(text: string): string {
  const t = text.trim();
  if (isAddress(t, { strict: false })) return `wallet:${t.toLowerCase()}`;
  const e = Email.safeParse(t);
  if (e.success) return `email:${e.data}`;
  throw new ApiError('invalid_param', "'identity': must be an e-mail address or a 0x wallet address");
}

export const memberView = (m: Member) => ({ memberId: m.memberId, identity: m.identity, role: m.role, createdAt: new Date(m.createdAt).toISOString() });

const invitationView = (i: Invitation) => ({
  inviteId: i.inviteId,
  orgId: i.orgId,
  orgName: i.orgName,
  identity: i.identity,
  role: i.role,
  invitedBy: i.invitedBy.identity,
  createdAt: new Date(i.createdAt).toISOString(),
  expiresAt: new Date(i.expiresAt).toISOString(),
});

/** open invitations an organisation may have at once */
const MAX_OPEN_INVITATIONS = 50;

const requests = {
  invite: z.object({ identity: z.string().max(254) }),
  byInvite: z.object({ inviteId: z.string().regex(/^inv_[0-9a-f]{24}$/, 'must be an invitation id') }),
  byMember: z.object({ memberId: z.string().regex(/^mem_[0-9a-f]{16}$/, 'must be a member id') }),
};

/** what the member routes need of the console plugin */
export interface MemberRoutesContext {
  accounts: ConsoleAccounts;
  keys: KeyService;
  invitations: Invitations;
  clock: () => number;
  csrf: preHandlerHookHandler;
  signedIn(req: FastifyRequest, now: number): Promise<SignedIn>;
  actor(s: SignedIn, req: FastifyRequest): Actor;
  ownerOnly(s: SignedIn, what: string): void;
  /** a session for the member, its cookie set on the reply; the sign-in answer */
  openSession(req: FastifyRequest, reply: FastifyReply, member: Member, org: Org, method: Session['method'], now: number): Promise<Record<string, unknown>>;
}

const body = <S extends z.ZodObject>(schema: S, req: FastifyRequest): z.output<S> => parseInput(schema, requestBody(req), 'body');

/**
 * Members of an organisation: listed with their roles and open invitations; the owner invites,
 * withdraws an invitation and removes. Every change is in the audit log.
 */
export function memberRoutes(app: FastifyInstance, ctx: MemberRoutesContext): void {
  const { accounts, invitations, clock, csrf } = ctx;

  app.get('/console/api/members', async (req) => {
    const now = clock();
    const s = await ctx.signedIn(req, now);
    return { members: (await accounts.members(s.org.id)).map(memberView), invitations: (await invitations.ofOrg(s.org.id, now)).map(invitationView) };
  });

  app.post('/console/api/members/invite', { preHandler: csrf }, async (req) => {
    const now = clock();
    const s = await ctx.signedIn(req, now);
    ctx.ownerOnly(s, 'invite members');
    const identity = identityOf(body(requests.invite, req).identity);
    const bare = identity.replace(/^(wallet|email):/, '');
    if ((await accounts.members(s.org.id)).some((m) => m.identity === identity)) throw new ApiError('invalid_state', `${bare} is already a member`);
    const open = await invitations.ofOrg(s.org.id, now);
    if (open.some((i) => i.identity === identity)) throw new ApiError('invalid_state', `${bare} is already invited`);
    if (open.length >= MAX_OPEN_INVITATIONS) throw new ApiError('invalid_state', `the organisation has ${open.length} open invitations: revoke some first`);
    const inv = await invitations.invite(s.org, identity, 'member', s.member, now);
    await accounts.audit(s.org.id, ctx.actor(s, req), 'member.invited', inv.inviteId, { identity, role: inv.role }, now);
    return { invitation: invitationView(inv) };
  });

  app.post('/console/api/members/invitations/revoke', { preHandler: csrf }, async (req) => {
    const now = clock();
    const s = await ctx.signedIn(req, now);
    ctx.ownerOnly(s, 'revoke invitations');
    const { inviteId } = body(requests.byInvite, req);
    const inv = (await invitations.ofOrg(s.org.id, now)).find((i) => i.inviteId === inviteId);
    if (!inv) throw new ApiError('not_found', `no open invitation ${inviteId} in this organisation`);
    await invitations.close(inv, 'revoked', now);
    await accounts.audit(s.org.id, ctx.actor(s, req), 'member.invite_revoked', inviteId, { identity: inv.identity }, now);
    return { inviteId, state: 'revoked' };
  });

  app.post('/console/api/members/remove', { preHandler: csrf }, async (req) => {
    const now = clock();
    const s = await ctx.signedIn(req, now);
    ctx.ownerOnly(s, 'remove members');
    const { memberId } = body(requests.byMember, req);
    const target = (await accounts.members(s.org.id)).find((m) => m.memberId === memberId);
    if (!target) throw new ApiError('not_found', `no member ${memberId} in this organisation`);
    if (target.role === 'owner') throw new ApiError('invalid_state', "the organisation's owner cannot be removed");
    const done = await accounts.removeMember(s.org.id, memberId, now);
    const revokedSessions = done?.revokedSessions ?? 0;
    await accounts.audit(s.org.id, ctx.actor(s, req), 'member.removed', memberId, { identity: target.identity, role: target.role, revokedSessions }, now);
    return { memberId, removed: true, revokedSessions };
  });
}

/**
 * An invitee's side: the invitations addressed to the signed-in identity, declined or accepted
 * (leaving its organisation for the one invited to). Every change is in the audit log.
 */
export function invitationRoutes(app: FastifyInstance, ctx: MemberRoutesContext): void {
  const { accounts, invitations, clock, csrf } = ctx;

  /** an open invitation addressed to the signed-in identity; another's is not found, as an unknown one */
  async function mine(s: SignedIn, inviteId: string, now: number): Promise<Invitation> {
    const inv = (await invitations.addressedTo(s.member.identity, now)).find((i) => i.inviteId === inviteId);
    if (!inv) throw new ApiError('not_found', `no open invitation ${inviteId} for ${s.member.identity.replace(/^(wallet|email):/, '')}`);
    return inv;
  }

  app.get('/console/api/invitations', async (req) => {
    const now = clock();
    const s = await ctx.signedIn(req, now);
    return { invitations: (await invitations.addressedTo(s.member.identity, now)).map(invitationView) };
  });

  app.post('/console/api/invitations/decline', { preHandler: csrf }, async (req) => {
    const now = clock();
    const s = await ctx.signedIn(req, now);
    const inv = await mine(s, body(requests.byInvite, req).inviteId, now);
    await invitations.close(inv, 'declined', now);
    await accounts.audit(inv.orgId, ctx.actor(s, req), 'member.invite_declined', inv.inviteId, { identity: inv.identity }, now);
    return { inviteId: inv.inviteId, state: 'declined' };
  });

  app.post('/console/api/invitations/accept', { preHandler: csrf }, async (req, reply) => {
    const now = clock();
    const s = await ctx.signedIn(req, now);
    const inv = await mine(s, body(requests.byInvite, req).inviteId, now);
    const org = await ctx.keys.getOrg(inv.orgId);
    if (!org || inv.orgId === s.org.id) throw new ApiError('invalid_state', `the invitation to ${inv.orgName} can no longer be accepted`);
    const others = (await accounts.members(s.org.id)).filter((m) => m.memberId !== s.member.memberId);
    if (s.member.role === 'owner' && others.length > 0) {
      throw new ApiError('invalid_state', `you own ${s.org.name}, which has other members: remove them before joining another organisation`);
    }
    await invitations.close(inv, 'accepted', now);
    const left = await leave(s, req, others.length === 0, inv.orgId, now);
    const member = await accounts.join(inv.orgId, s.member.identity, inv.role, { inviteId: inv.inviteId, addedBy: inv.invitedBy.memberId }, now);
    await accounts.audit(inv.orgId, { member, ip: req.ip }, 'member.joined', member.memberId, { inviteId: inv.inviteId, role: inv.role, invitedBy: inv.invitedBy.identity }, now);
    return { ...(await ctx.openSession(req, reply, member, org, s.session.method, now)), left };
  });

  /**
   * The signed-in member leaves its organisation for another. The last member leaving leaves it
   * unmanaged: its keys are revoked and its invitations withdrawn, so nothing outlives its people.
   */
  async function leave(s: SignedIn, req: FastifyRequest, last: boolean, joined: string, now: number) {
    let revokedKeys = 0;
    if (last) {
      for (const k of await ctx.keys.list(s.org.id)) if (!k.revokedAt && (await ctx.keys.revoke(k.id, now))) revokedKeys++;
      for (const i of await invitations.ofOrg(s.org.id, now)) await invitations.close(i, 'revoked', now);
    }
    await accounts.removeMember(s.org.id, s.member.memberId, now);
    await accounts.audit(s.org.id, ctx.actor(s, req), 'member.left', s.member.memberId, { joined, revokedKeys }, now);
    return { orgId: s.org.id, revokedKeys };
  }
}
