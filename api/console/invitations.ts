import { randomBytes } from 'node:crypto';
import type { Store } from '../../infra/store/types.ts';
import type { Org } from '../../infra/keys.ts';
import { INVITATION_CLOSED, INVITATION_PENDING, InvitationRow } from './rows.ts';
import type { Invitation, Member, Role } from './rows.ts';

/** how long an invitation waits for its invitee */
export const INVITATION_TTL_MS = 7 * 86_400_000;

/**
 * Invitations to join an organisation, in the store. An invitation is only a proposal: the
 * invitee's sign-ins are theirs until they accept it, signed in as the identity it names.
 */
export function createInvitations(store: Store) {
  async function write(inv: Invitation, version: number): Promise<void> {
    const body = InvitationRow.codec.encode(inv);
    await store.upsert(
      InvitationRow.table,
      InvitationRow.keys(inv).map((key) => ({ key, version, body, expiresAt: inv.expiresAt })),
    );
  }

  async function listed(prefix: string, now: number, of: (i: Invitation) => boolean): Promise<Invitation[]> {
    const rows = await store.list(InvitationRow.table, { prefix });
    return rows
      .flatMap((r) => InvitationRow.codec.decode(r.body) ?? [])
      .filter((i) => of(i) && i.state === 'pending' && i.expiresAt > now)
      .sort((a, b) => a.createdAt - b.createdAt);
  }

  return {
    async invite(org: Org, identity: string, role: Role, by: Member, now: number): Promise<Invitation> {
      const inv: Invitation = {
        inviteId: `inv_${randomBytes(12).toString('hex')}`,
        orgId: org.id,
        orgName: org.name,
        identity,
        role,
        invitedBy: { memberId: by.memberId, identity: by.identity },
        createdAt: now,
        expiresAt: now + INVITATION_TTL_MS,
        state: 'pending',
        closedAt: null,
      };
      await write(inv, INVITATION_PENDING);
      return inv;
    },

    /** the organisation's open invitations */
    ofOrg: (orgId: string, now: number) => listed(InvitationRow.orgPrefix(orgId), now, (i) => i.orgId === orgId),
    /**
     * the open invitations addressed to an identity: exactly it, since an e-mail address may hold
     * a colon and another's key may then start with this one's prefix
     */
    addressedTo: (identity: string, now: number) => listed(InvitationRow.toPrefix(identity), now, (i) => i.identity === identity),

    /** accepted, declined or revoked: it can no longer be accepted */
    async close(inv: Invitation, state: Exclude<Invitation['state'], 'pending'>, now: number): Promise<Invitation> {
      const closed = { ...inv, state, closedAt: now };
      await write(closed, INVITATION_CLOSED);
      return closed;
    },
  };
}

export type Invitations = ReturnType<typeof createInvitations>;
