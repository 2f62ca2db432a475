export {
  initialWalletState,
  foldWalletSwap,
  foldWalletSwapInPlace,
  foldPriceMark,
  foldPriceMarkInPlace,
  foldPoolCreated,
  compactWalletState,
  walletKey,
  EDGE_HORIZON_S,
  REORG_HORIZON_BLOCKS,
} from './state.ts';
export type { WalletState, PriceMark, TokenState, TokenBook, EdgeBook } from './state.ts';
export { deriveWalletSnapshot, Thresholds } from './derive.ts';
export type { WalletContext } from './derive.ts';
