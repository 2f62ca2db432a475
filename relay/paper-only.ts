import { ApiError } from '../schemas/errors.ts';
import type { VenueGateway } from '../venues/types.ts';

const unconfigured = () => new ApiError('gateway_unconfigured', 'no execution venue is configured on this deployment');

/** A deployment that trades on paper only: no venue is configured, no client can be built. */
export const paperOnlyVenues: VenueGateway = {
  configured: () => false,
  sessionKey: () => {
    throw unconfigured();
  },
  sessionSetup: async () => {
    throw unconfigured();
  },
  sessionEnabled: async () => false,
  client: async () => {
    throw unconfigured();
  },
};
