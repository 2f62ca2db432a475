import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest, preHandlerHookHandler } from 'fastify';
import type { Store } from '../../infra/store/types.ts';
import { ApiError } from '../../schemas/errors.ts';
import type { KeyService, Org } from '../../infra/keys.ts';
import type { DailyLimits, Meter } from '../metering.ts';
import type { createWebhookActions } from '../routes/webhooks.ts';
import type { ChainRpcUrls } from '../wallet-auth.ts';
import { createConsoleAccounts } from './accounts.ts';
import type { SignedIn } from './accounts.ts';
import { createInvitations } from './invitations.ts';
import { createConsoleLimits } from './limits.ts';
import type { ConsoleLimits, ConsoleRates } from './limits.ts';
import type { SignInMailer } from './mailer.ts';
import { memberView } from './members.ts';
import type { MemberRoutesContext } from './members.ts';
import type { Member, Session } from './rows.ts';

export interface ConsoleDeps {
  keys: KeyService;
  meter: Meter;
  store: Store;
  webhooks: ReturnType<typeof createWebhookActions>;
  mailer: SignInMailer;
  /**
   * the one canonical origin (PUBLIC_URL, or the process's own URL once it listens): SIWE messages
   * must name its host and URI, e-mail links point there; a request's Host never does
   */
  publicUrl: () => string;
  rpcUrls?: ChainRpcUrls;
  now?: () => number;
  sessionHours: number;
  /** unrevoked keys an organisation may hold (KEYS_PER_ORG_SANDBOX, KEYS_PER_ORG_LIVE) */
  keysPerOrg: { sandbox: number; live: number };
  /** the rate limits of sign-in, sign-up and key creation, per client address and per identity */
  rates: ConsoleRates;
  logger?: FastifyBaseLogger;
}

/** `limits`: the daily limits the usage panel states, the app's own (api/app.ts) */
export type ConsolePluginDeps = ConsoleDeps & { limits: DailyLimits };

export const SESSION_COOKIE = 'console_session';

/** what the console's route groups share: its dependencies, the session and the checks of a call */
export interface ConsoleContext extends MemberRoutesContext {
  deps: ConsolePluginDeps;
  /** sign-in, sign-up and key creation rates (./limits.ts) */
  rates: ConsoleLimits;
  /** the canonical origin and its host (the SIWE domain) */
  canonical(): { domain: string; origin: string };
  ipOf(req: FastifyRequest): string | null;
  /** signs the identity in (a sign-up when it creates an organisation, limited per address) and opens a session */
  startSession(req: FastifyRequest, reply: FastifyReply, identity: string, method: Session['method'], now: number): Promise<Record<string, unknown>>;
}

export function createConsoleContext(app: FastifyInstance, deps: ConsolePluginDeps): ConsoleContext {
  const accounts = createConsoleAccounts({ store: deps.store, keys: deps.keys, sessionMs: deps.sessionHours * 3_600_000 });
  const rates = createConsoleLimits(deps.rates);
  const canonical = () => {
    const u = new URL(deps.publicUrl());
    return { domain: u.host, origin: u.origin };
  };
  const ipOf = (req: FastifyRequest) => req.ip ?? null;

  async function openSession(req: FastifyRequest, reply: FastifyReply, member: Member, org: Org, method: Session['method'], now: number) {
    const { session, cookie } = await accounts.openSession(member, method, now, { ip: ipOf(req), userAgent: req.headers['user-agent'] ?? null });
    await accounts.audit(org.id, { member, ip: ipOf(req) }, 'session.signed_in', session.sessionId, { method }, now);
    void reply.setCookie(SESSION_COOKIE, cookie, {
      path: '/console',
      httpOnly: true,
      sameSite: 'lax',
      // the browser's view: the canonical origin is https behind a TLS proxy this process may not trust
      secure: req.protocol === 'https' || canonical().origin.startsWith('https:'),
      expires: new Date(session.expiresAt),
    });
    return { org: { orgId: org.id, name: org.name, live: org.live }, member: memberView(member) };
  }

  return {
    deps,
    accounts,
    keys: deps.keys,
    invitations: createInvitations(deps.store),
    clock: deps.now ?? Date.now,
    rates,
    canonical,
    ipOf,
    /** state changes: the CSRF token of this browser, or 403 csrf_invalid (api/plugins/errors.ts) */
    csrf: ((req, reply, done) => app.csrfProtection(req, reply, done)) satisfies preHandlerHookHandler,
    async signedIn(req: FastifyRequest, now: number): Promise<SignedIn> {
      const s = await accounts.session(req.cookies[SESSION_COOKIE], now);
      if (!s) throw new ApiError('signin_required', 'sign in at /console first (the session is missing, expired or revoked)');
      return s;
    },
    actor: (s, req) => ({ member: s.member, ip: ipOf(req) }),
    ownerOnly(s, what) {
      if (s.member.role !== 'owner') throw new ApiError('forbidden', `only the organisation's owner can ${what}`);
    },
    openSession,
    async startSession(req, reply, identity, method, now) {
      // a sign-in that would create an organisation is a sign-up, limited per client address
      if (!(await accounts.linked(identity))) rates.signUp(req.ip, now);
      const { member, org, created } = await accounts.signIn(identity, now, ipOf(req));
      return { created, ...(await openSession(req, reply, member, org, method, now)) };
    },
  };
}
