export type { VenueAccountState, VenuePosition } from './account.ts';
export { VenueThresholds, deriveVenueAccount, gradeAccount, initialVenueAccountState } from './account.ts';
export { foldPerpFill } from './perp.ts';
export { foldPredictionTrade } from './prediction.ts';
