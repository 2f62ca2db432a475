import { ApiError } from '../../schemas/errors.ts';
import { clientOf, createFailureThrottle } from '../plugins/auth.ts';

/** how often the console's doors may be used (infra/config.ts CONSOLE_*) */
export interface ConsoleRates {
  /** sign-in attempts (challenges, e-mail links, verifications) per client address and minute */
  signInPerMinute: number;
  /** wallet challenges and e-mail links asked for one identity per hour, whoever asks */
  signInPerIdentityPerHour: number;
  /** organisations created by first sign-ins per client address and hour */
  signUpsPerHour: number;
  /** keys created per client address and hour, and per signed-in identity and hour */
  keyCreatesPerHour: number;
}

const HOUR_MS = 3_600_000;
type Throttle = ReturnType<typeof createFailureThrottle>;

/**
 * The console's rate limits, per client address and per identity: each a token bucket. A call
 * takes one token from each bucket it is counted in, and only when all of them have one, so a
 * refused call spends nothing. The client address is fastify's `req.ip`: the socket's peer unless
 * HTTP_TRUST_PROXY names a proxy whose X-Forwarded-For is believed; an IPv6 client counts per /64.
 */
export function createConsoleLimits(rates: ConsoleRates) {
  const signInByAddress = createFailureThrottle(rates.signInPerMinute);
  const signInByIdentity = createFailureThrottle(rates.signInPerIdentityPerHour, 10_000, HOUR_MS);
  const signUpByAddress = createFailureThrottle(rates.signUpsPerHour, 10_000, HOUR_MS);
  const keysByAddress = createFailureThrottle(rates.keyCreatesPerHour, 10_000, HOUR_MS);
  const keysByIdentity = createFailureThrottle(rates.keyCreatesPerHour, 10_000, HOUR_MS);

  /** one token from each (bucket, who), or 429 rate_limited with Retry-After saying what was exceeded */
  function take(now: number, what: string, counted: [Throttle, string, string][]): void {
    for (const [throttle, who, per] of counted) {
      const wait = throttle.waitMs(who, now);
      if (wait > 0) {
        const s = Math.max(1, Math.ceil(wait / 1000));
        throw new ApiError('rate_limited', `too many ${what} ${per}; retry in ${s} s`, { headers: { 'retry-after': String(s) } });
      }
    }
    for (const [throttle, who] of counted) throttle.failed(who, now);
  }

  return {
    /** a sign-in step (challenge, e-mail link, verification) from a client address, counted before its input is read */
    signIn(ip: string, now: number): void {
      take(now, 'sign-in attempts', [[signInByAddress, clientOf(ip), 'from this address']]);
    },
    /** a wallet challenge or an e-mail link asked for an identity (`wallet:…`, `email:…`) */
    signInFor(identity: string, now: number): void {
      take(now, 'sign-in attempts', [[signInByIdentity, identity, 'for this wallet or e-mail address']]);
    },
    /** a first sign-in that would create an organisation */
    signUp(ip: string, now: number): void {
      take(now, 'new organisations', [[signUpByAddress, clientOf(ip), 'from this address']]);
    },
    keyCreate(ip: string, identity: string, now: number): void {
      take(now, 'keys created', [
        [keysByAddress, clientOf(ip), 'from this address'],
        [keysByIdentity, identity, 'by this member'],
      ]);
    },
  };
}

export type ConsoleLimits = ReturnType<typeof createConsoleLimits>;
