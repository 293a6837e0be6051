/**
 * The P-chain block and tx decoder: avalanchego's bytes to typed values whose txs equal the
 * node's JSON encoding of them. No avalanchejs and nothing from the emulator on this path.
 */
export { decodePBlock, decodePTx, type PDecodeOptions } from "./block.ts"
export { PvmDecodeError } from "./errors.ts"
export { pBytesFromNodeHex } from "./nodeHex.ts"
export { SECP256K1FX_ID } from "./components.ts"
export type * from "./shapes.ts"
export {
  P_BLOCK_TYPES,
  P_COMPONENT_TYPE_IDS,
  P_TX_TYPES,
  pBlockTypeById,
  pTxTypeById,
  pTxTypeByName,
  type Era,
  type PBlockTypeName,
  type PTxTypeName,
  type PTypeInfo
} from "./types.ts"
