import type { LocalAccount } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { rowOf } from '../../infra/rows.ts';
import { consoleAppPerTest } from '../../test/console-client.ts';
import { IdentityRow, MemberRow } from './rows.ts';
import type { ConsoleApp, ConsoleClient } from '../../test/console-client.ts';

const { boot } = consoleAppPerTest();

const wallet = () => privateKeyToAccount(generatePrivateKey());
const orgOf = async (b: ConsoleClient) => ((await b.call('GET', '/console/api/me')).json.org as { orgId: string }).orgId;
const invitationsOf = async (b: ConsoleClient) => (await b.call('GET', '/console/api/invitations')).json.invitations as { inviteId: string; orgId: string; orgName: string; role: string }[];

/** an owner signed in with a wallet, in an organisation of its own */
async function owner(c: ConsoleApp): Promise<{ b: ConsoleClient; orgId: string; account: LocalAccount }> {
  const account = wallet();
  const b = c.browser();
  expect((await b.signInWithWallet(account)).json.created).toBe(true);
  return { b, orgId: await orgOf(b), account };
}

/** the owner invites the identity; the invitee, signed in, accepts: the invitee's browser and member id */
async function join(c: ConsoleApp, o: ConsoleClient, invitee: LocalAccount): Promise<{ b: ConsoleClient; memberId: string }> {
  expect((await o.call('POST', '/console/api/members/invite', { identity: invitee.address })).status).toBe(200);
  const b = c.browser();
  await b.signInWithWallet(invitee);
  const [inv] = await invitationsOf(b);
  const accepted = await b.call('POST', '/console/api/invitations/accept', { inviteId: inv?.inviteId });
  expect(accepted.status).toBe(200);
  return { b, memberId: (accepted.json.member as { memberId: string }).memberId };
}

describe('members: invitations the invitee accepts, removal by the owner', () => {
  it("org-squatting: an attacker inviting a victim's wallet and e-mail does not capture the victim's sign-ins", async () => {
    const c = await boot();
    const attacker = await owner(c);
    const victim = wallet();
    for (const identity of [victim.address, 'Victim@Example.com']) expect((await attacker.b.call('POST', '/console/api/members/invite', { identity })).status).toBe(200);

    const byWallet = c.browser();
    const signed = await byWallet.signInWithWallet(victim);
    expect(signed.json).toMatchObject({ created: true, member: { role: 'owner' } });
    expect(await orgOf(byWallet)).not.toBe(attacker.orgId);
    const byEmail = c.browser();
    const mailed = await byEmail.signInWithEmail('victim@example.com', c.mailbox);
    expect(mailed.json).toMatchObject({ created: true, member: { role: 'owner' } });
    expect(await orgOf(byEmail)).not.toBe(attacker.orgId);

    // the attacker's organisation has the attacker alone; the invitations wait, visible to the victim only
    const members = (await attacker.b.call('GET', '/console/api/members')).json;
    expect((members.members as unknown[]).length).toBe(1);
    expect((members.invitations as { identity: string }[]).map((i) => i.identity).sort()).toEqual(['email:victim@example.com', `wallet:${victim.address.toLowerCase()}`]);
    expect(await invitationsOf(byWallet)).toEqual([expect.objectContaining({ orgId: attacker.orgId, role: 'member' })]);
  });

  it('invitation accepted by someone else: another identity neither sees, accepts nor declines it; the invitee accepts it once', async () => {
    const c = await boot();
    const o = await owner(c);
    const invited = await o.b.call('POST', '/console/api/members/invite', { identity: 'Alice@Example.com' });
    const inviteId = (invited.json.invitation as { inviteId: string }).inviteId;

    const mallory = c.browser();
    await mallory.signInWithEmail('mallory@example.com', c.mailbox);
    expect(await invitationsOf(mallory)).toEqual([]);
    // an identity whose key starts with alice's: its invitation is not alice's to accept
    const lookalike = await o.b.call('POST', '/console/api/members/invite', { identity: 'alice@example.com:x.io' });
    expect(lookalike.status).toBe(200);
    for (const path of ['/console/api/invitations/accept', '/console/api/invitations/decline']) {
      const r = await mallory.call('POST', path, { inviteId });
      expect(r.status, path).toBe(404);
      expect(r.json.error).toBe('not_found');
    }
    // the owner cannot accept on the invitee's behalf either
    expect((await o.b.call('POST', '/console/api/invitations/accept', { inviteId })).status).toBe(404);
    expect((await o.b.call('GET', '/console/api/members')).json.members).toHaveLength(1);

    const alice = c.browser();
    await alice.signInWithEmail('alice@example.com', c.mailbox);
    expect((await invitationsOf(alice)).map((i) => i.inviteId)).toEqual([inviteId]);
    const notHers = (lookalike.json.invitation as { inviteId: string }).inviteId;
    expect((await alice.call('POST', '/console/api/invitations/accept', { inviteId: notHers })).status).toBe(404);
    const accepted = await alice.call('POST', '/console/api/invitations/accept', { inviteId });
    expect(accepted.status).toBe(200);
    expect(await orgOf(alice)).toBe(o.orgId);
    expect((await alice.call('POST', '/console/api/invitations/accept', { inviteId })).status).toBe(404);
    const roles = ((await o.b.call('GET', '/console/api/members')).json.members as { identity: string; role: string }[]).map((m) => `${m.role} ${m.identity}`);
    expect(roles).toEqual([`owner wallet:${o.account.address.toLowerCase()}`, 'member email:alice@example.com']);
  });

  it("removed member: its open sessions end at once, its next sign-in creates its own organisation, and leaving its first one revoked that one's keys", async () => {
    const c = await boot();
    const o = await owner(c);
    const dev = wallet();
    // before accepting, the invitee mints a key in its own organisation
    const own = c.browser();
    await own.signInWithWallet(dev);
    const ownOrg = await orgOf(own);
    const ownKey = (await own.call('POST', '/console/api/keys/create', {})).json.plaintext as string;
    const { b: first, memberId } = await join(c, o.b, dev);
    const probe = (key: string) => fetch(`${c.url}/v1/probe`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: '{}' });
    expect((await probe(ownKey)).status).toBe(401);
    // the session of the organisation it left is over too
    expect((await own.call('GET', '/console/api/me')).status).toBe(401);

    const second = c.browser();
    expect((await second.signInWithWallet(dev)).json).toMatchObject({ created: false, member: { role: 'member', memberId } });
    const keyOfMember = (await second.call('POST', '/console/api/keys/create', {})).json.plaintext as string;

    const removed = await o.b.call('POST', '/console/api/members/remove', { memberId });
    expect(removed.json).toEqual({ memberId, removed: true, revokedSessions: 2 });
    for (const b of [first, second]) {
      expect((await b.call('GET', '/console/api/me')).json.error).toBe('signin_required');
      expect((await b.call('POST', '/console/api/keys/create', {})).status).toBe(401);
    }
    // the organisation's keys are the organisation's: one a member made keeps working
    expect((await probe(keyOfMember)).status).toBe(200);

    const back = c.browser();
    const again = await back.signInWithWallet(dev);
    expect(again.json).toMatchObject({ created: true, member: { role: 'owner' } });
    expect([o.orgId, ownOrg]).not.toContain(await orgOf(back));

    const audit = ((await o.b.call('GET', '/console/api/audit')).json.entries as { action: string; detail: Record<string, unknown> | null }[]).map((e) => e.action);
    expect(audit.filter((a) => a.startsWith('member.'))).toEqual(['member.removed', 'member.joined', 'member.invited']);
  });

  it('roles: only the owner invites, revokes invitations and removes; the owner is never removed; an owner with members cannot leave', async () => {
    const c = await boot();
    const o = await owner(c);
    const { b: member, memberId } = await join(c, o.b, wallet());
    for (const [path, body] of [
      ['/console/api/members/invite', { identity: 'x@example.com' }],
      ['/console/api/members/remove', { memberId }],
      ['/console/api/members/invitations/revoke', { inviteId: `inv_${'0'.repeat(24)}` }],
    ] as const) {
      const r = await member.call('POST', path, body);
      expect(r.status, path).toBe(403);
      expect(r.json.error).toBe('forbidden');
    }
    const ownerId = ((await o.b.call('GET', '/console/api/me')).json.member as { memberId: string }).memberId;
    const self = await o.b.call('POST', '/console/api/members/remove', { memberId: ownerId });
    expect(self.json).toEqual({ error: 'invalid_state', detail: "the organisation's owner cannot be removed" });
    const elsewhere = await owner(c);
    expect((await elsewhere.b.call('POST', '/console/api/members/remove', { memberId })).status).toBe(404);
    expect((await o.b.call('POST', '/console/api/members/invite', { identity: 'nope' })).json).toEqual({ error: 'invalid_param', detail: "'identity': must be an e-mail address or a 0x wallet address" });
    expect((await o.b.call('POST', '/console/api/invitations/accept', { inviteId: 'inv_x' })).json.error).toBe('invalid_param');

    // an owner whose organisation has members is invited elsewhere: it must remove them first
    const inv = await elsewhere.b.call('POST', '/console/api/members/invite', { identity: o.account.address });
    const refused = await o.b.call('POST', '/console/api/invitations/accept', { inviteId: (inv.json.invitation as { inviteId: string }).inviteId });
    expect(refused.status).toBe(409);
    expect(refused.json.error).toBe('invalid_state');
    expect(await orgOf(o.b)).toBe(o.orgId);
  });

  it('a revoked or declined invitation can no longer be accepted; both are in the audit log', async () => {
    const c = await boot();
    const o = await owner(c);
    const bob = c.browser();
    await bob.signInWithEmail('bob@example.com', c.mailbox);
    const first = (await o.b.call('POST', '/console/api/members/invite', { identity: 'bob@example.com' })).json.invitation as { inviteId: string };
    expect((await o.b.call('POST', '/console/api/members/invite', { identity: 'BOB@example.com' })).json).toEqual({ error: 'invalid_state', detail: 'bob@example.com is already invited' });
    expect((await o.b.call('POST', '/console/api/members/invitations/revoke', { inviteId: first.inviteId })).json).toEqual({ inviteId: first.inviteId, state: 'revoked' });
    expect(await invitationsOf(bob)).toEqual([]);
    expect((await bob.call('POST', '/console/api/invitations/accept', { inviteId: first.inviteId })).status).toBe(404);

    const second = (await o.b.call('POST', '/console/api/members/invite', { identity: 'bob@example.com' })).json.invitation as { inviteId: string };
    expect((await bob.call('POST', '/console/api/invitations/decline', { inviteId: second.inviteId })).json).toEqual({ inviteId: second.inviteId, state: 'declined' });
    expect((await bob.call('POST', '/console/api/invitations/accept', { inviteId: second.inviteId })).status).toBe(404);
    expect(await orgOf(bob)).not.toBe(o.orgId);

    const audit = ((await o.b.call('GET', '/console/api/audit')).json.entries as { action: string; actor: { identity: string } }[]).map((e) => `${e.action} ${e.actor.identity}`);
    const ownerId = `wallet:${o.account.address.toLowerCase()}`;
    expect(audit.filter((a) => a.startsWith('member.'))).toEqual([
      'member.invite_declined email:bob@example.com',
      `member.invited ${ownerId}`,
      `member.invite_revoked ${ownerId}`,
      `member.invited ${ownerId}`,
    ]);
  });

  it('org-squatting left from before invitations: an identity an owner added is not signed in there; the addition becomes an invitation', async () => {
    const c = await boot();
    const o = await owner(c);
    const ownerId = ((await o.b.call('GET', '/console/api/me')).json.member as { memberId: string }).memberId;
    // the rows the former "add member" wrote: a member and its identity's link, never accepted
    const victim = wallet();
    const identity = `wallet:${victim.address.toLowerCase()}`;
    const squat = { memberId: 'mem_00000000000000aa', orgId: o.orgId, identity, role: 'member' as const, createdAt: Date.now() - 60_000, addedBy: ownerId };
    await c.t.store.upsert(MemberRow.table, [rowOf(MemberRow, squat, squat.createdAt, o.orgId, squat.memberId)]);
    await c.t.store.upsert(IdentityRow.table, [rowOf(IdentityRow, { identity, orgId: o.orgId, memberId: squat.memberId }, squat.createdAt, identity)]);

    const b = c.browser();
    expect((await b.signInWithWallet(victim)).json).toMatchObject({ created: true, member: { role: 'owner' } });
    expect(await orgOf(b)).not.toBe(o.orgId);
    const members = (await o.b.call('GET', '/console/api/members')).json;
    expect((members.members as { identity: string }[]).map((m) => m.identity)).toEqual([`wallet:${o.account.address.toLowerCase()}`]);
    expect(await invitationsOf(b)).toEqual([expect.objectContaining({ orgId: o.orgId, role: 'member' })]);
    // accepting it is the victim's choice, and works as any invitation
    const [inv] = await invitationsOf(b);
    expect((await b.call('POST', '/console/api/invitations/accept', { inviteId: inv?.inviteId })).status).toBe(200);
    expect(await orgOf(b)).toBe(o.orgId);
  });
});
