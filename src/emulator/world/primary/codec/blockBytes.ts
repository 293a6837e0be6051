/**
 * Block bytes in avalanchego's layouts around the txs of txBytes.ts:
 * - X-chain StandardBlock (type 20: after the AVM's 5 tx types and 15 fx types): parent, height,
 *   time, merkle root (unused, zero), txs;
 * - P-chain BanffStandardBlock (type 32): time, parent, height, txs;
 * - P-chain BanffProposalBlock (type 29): time, decision txs (none), parent, height, the one tx.
 * Each tx is a signed tx without its codec version (the block carries one for all).
 * A node's block id is sha256 of these bytes (servedIds.ts): the parent goes through `ids` too.
 */
import type { BlockRecord, TxRecord } from "../types.ts"
import { lib } from "./avalanche.ts"
import type { IdMap, TxBytes } from "./txBytes.ts"

const X_STANDARD_BLOCK = 20
const P_PROPOSAL_BLOCK = 29
const P_STANDARD_BLOCK = 32
const CODEC_VERSION_BYTES = 2

const u32 = (n: number): Uint8Array => new lib.Int(n).toBytes()
const u64 = (n: bigint): Uint8Array => new lib.BigIntPr(n).toBytes()

export const blockBytes = (b: BlockRecord, txs: ReadonlyArray<TxRecord>, txBytes: Pick<TxBytes, "bytes">, ids: IdMap): Uint8Array => {
  const signed = txs.map((t) => txBytes.bytes(t).subarray(CODEC_VERSION_BYTES))
  const list = [u32(signed.length), ...signed]
  const version = new lib.Short(0).toBytes()
  const parent = lib.Id.fromString(ids(b.parentId)).toBytes()
  const time = u64(BigInt(b.timestamp))
  if (b.chain === "X") {
    return lib.utils.concatBytes(version, u32(X_STANDARD_BLOCK), parent, u64(b.height), time, new Uint8Array(32), ...list)
  }
  if (b.blockType === "BanffProposalBlock" && signed.length === 1) {
    return lib.utils.concatBytes(version, u32(P_PROPOSAL_BLOCK), time, u32(0), parent, u64(b.height), signed[0] as Uint8Array)
  }
  return lib.utils.concatBytes(version, u32(P_STANDARD_BLOCK), time, parent, u64(b.height), ...list)
}
