import { z } from 'zod';
import { Hex40 } from './events.ts';

/**
 * What the owner of an ERC-7579 smart account grants an evm-spot agent's session key when it
 * enables the session on the session module (infra/devnet/contracts/SessionSwapValidator.sol,
 * `enableSession(SessionGrant)`): the one description of the session's install parameters, for
 * the setup calls, the agent's stored session and what the user signs. Amounts are decimal strings
 * of base units (JSON-safe; the contract takes them as uint256).
 */
const BaseUnits = z.string().regex(/^\d{1,78}$/, 'a decimal integer of base units');

/** a stablecoin the session may spend (paths run between WETH or one of these and one other token), and its total cap */
export const EvmStableCap = z.object({
  token: Hex40,
  /** cumulative cap, the token's base units */
  cap: BaseUnits,
});
export type EvmStableCap = z.infer<typeof EvmStableCap>;

export const EvmSessionGrant = z.object({
  sessionKey: Hex40,
  /** the Uniswap V2 router02 every swap goes through */
  router: Hex40,
  /** unix seconds */
  validUntil: z.number().int().positive(),
  /** cumulative cap of native and WETH spent (and gas the account pays), wei */
  capNative: BaseUnits,
  /** stablecoins and their caps; any other token: at most what the session's own buys brought in */
  stables: z.array(EvmStableCap).max(8),
});
export type EvmSessionGrant = z.infer<typeof EvmSessionGrant>;
