/**
 * Signed-tx bytes written straight into a Writer, for the txs a chain holds by the thousand: the
 * reward and staker txs of the P-chain, wallets' BaseTx, ImportTx and ExportTx on both chains.
 * The layouts are avalanchego's (vms/platformvm/txs, vms/avm/txs, vms/components/avax,
 * vms/secp256k1fx): a type id (u32) before every interface value, u32-prefixed lists, big-endian
 * integers. The type ids are the codecs' registration order (vms/platformvm/txs/codec.go,
 * vms/avm/txs/codec.go).
 *
 * The avalanchejs path (txBytes.ts) stays the reference and the fallback: `writeTx` returns false
 * for any other tx (CreateAssetTx, OperationTx, subnet and L1 txs), and
 * packages/emulator/test/primary/directCodec.test.ts checks that both give the same bytes for every
 * tx of a world's first blocks.
 */
import { Lru } from "../lru.ts"
import { nodeIdBytes } from "../ids.ts"
import type { PrimaryNetwork } from "../network.ts"
import type { Owners, TxRecord, UtxoRecord } from "../types.ts"
import { lib } from "./avalanche.ts"
import { idBytes, type IdMap } from "./idBytes.ts"
import { owners } from "./owners.ts"
import { P_TX, SECP, X_TX } from "./typeIds.ts"
import type { Writer } from "./writer.ts"


/** Node id bytes by string: a node stakes again and again, and decoding one is a base58 decode. */
const nodeIds = new Lru<string, Uint8Array>(100_000)
const nodeIdOf = (s: string): Uint8Array =>
  nodeIds.get(s, () => {
    const b = nodeIdBytes(s)
    return b !== undefined && b.length === 20 ? b : lib.NodeId.fromString(s).toBytes()
  })

const hexBytes = (hex: string): Uint8Array => Buffer.from(hex.replace(/^0x/, ""), "hex")

const ownerInterface = (w: Writer, o: Owners): void => {
  w.u32(SECP.OutputOwners)
  owners(w, o)
}

const output = (w: Writer, u: UtxoRecord, ids: IdMap): void => {
  w.raw(idBytes(ids(u.assetId)))
  if (u.stakeableLocktime > 0n) {
    w.u32(P_TX.StakeableLockOut)
    w.u64(u.stakeableLocktime)
  }
  w.u32(SECP.TransferOutput)
  w.u64(u.amount)
  owners(w, u.owners)
}

const input = (w: Writer, u: UtxoRecord, ids: IdMap): void => {
  w.raw(idBytes(ids(u.txId)))
  w.u32(u.outputIndex)
  w.raw(idBytes(ids(u.assetId)))
  if (u.stakeableLocktime > 0n) {
    w.u32(P_TX.StakeableLockIn)
    w.u64(u.stakeableLocktime)
  }
  w.u32(SECP.TransferInput)
  w.u64(u.amount)
  const n = u.owners.threshold
  w.u32(n)
  for (let i = 0; i < n; i++) w.u32(i)
}

const outputs = (w: Writer, us: ReadonlyArray<UtxoRecord>, ids: IdMap): void => {
  w.u32(us.length)
  for (const u of us) output(w, u, ids)
}

const inputs = (w: Writer, us: ReadonlyArray<UtxoRecord>, ids: IdMap): void => {
  w.u32(us.length)
  for (const u of us) input(w, u, ids)
}

/** avax.BaseTx: network, chain, outputs, inputs, memo. */
const baseTx = (w: Writer, net: PrimaryNetwork, tx: TxRecord, ids: IdMap): void => {
  w.u32(net.networkId)
  w.raw(idBytes(net.blockchainIds[tx.chain]))
  outputs(w, tx.outputs, ids)
  inputs(w, tx.inputs, ids)
  w.bytes(tx.memo)
}

/** The staker txs: the Validator struct, then each type's fields in its struct's order. */
const stakingTx = (w: Writer, net: PrimaryNetwork, tx: TxRecord, ids: IdMap): void => {
  const s = tx.staking!
  const type = tx.type === "AddValidatorTx" || tx.type === "AddDelegatorTx" || tx.type === "AddPermissionlessValidatorTx" ? tx.type : "AddPermissionlessDelegatorTx"
  w.u32(P_TX[type])
  baseTx(w, net, tx, ids)
  w.raw(nodeIdOf(s.nodeId))
  w.u64(BigInt(s.start))
  w.u64(BigInt(s.end))
  w.u64(s.weight)
  const permissionless = type === "AddPermissionlessValidatorTx" || type === "AddPermissionlessDelegatorTx"
  if (permissionless) w.raw(idBytes(ids(s.subnetId)))
  if (type === "AddPermissionlessValidatorTx") {
    if (s.signer) {
      w.u32(P_TX.ProofOfPossession)
      w.raw(hexBytes(s.signer.publicKey))
      w.raw(hexBytes(s.signer.proofOfPossession))
    } else w.u32(P_TX.SignerEmpty)
  }
  outputs(w, tx.stake ?? [], ids)
  ownerInterface(w, s.rewardOwner)
  if (type === "AddPermissionlessValidatorTx") ownerInterface(w, s.delegationRewardOwner ?? s.rewardOwner)
  if (type === "AddValidatorTx" || type === "AddPermissionlessValidatorTx") w.u32(s.shares ?? 0)
}

/** The unsigned tx with its type id; false (nothing meaningful written) for a tx left to avalanchejs. */
const unsigned = (w: Writer, net: PrimaryNetwork, tx: TxRecord, ids: IdMap): boolean => {
  if (tx.chain === "X") {
    if (tx.asset !== undefined || tx.operation !== undefined || tx.type === "CreateAssetTx") return false
    const type = tx.imported ? X_TX.ImportTx : tx.exported ? X_TX.ExportTx : X_TX.BaseTx
    w.u32(type)
    baseTx(w, net, tx, ids)
  } else {
    if (tx.type === "RewardValidatorTx") {
      w.u32(P_TX.RewardValidatorTx)
      w.raw(idBytes(ids(tx.rewardedTxId ?? "")))
      return true
    }
    if (tx.type === "AdvanceTimeTx") {
      w.u32(P_TX.AdvanceTimeTx)
      w.u64(BigInt(tx.advanceTime ?? 0))
      return true
    }
    if (tx.staking) {
      stakingTx(w, net, tx, ids)
      return true
    }
    if (tx.subnet || tx.l1) return false
    w.u32(tx.imported ? P_TX.ImportTx : tx.exported ? P_TX.ExportTx : P_TX.BaseTx)
    baseTx(w, net, tx, ids)
  }
  if (tx.imported) {
    w.raw(idBytes(net.blockchainIds[tx.imported.sourceChain]))
    inputs(w, tx.imported.utxos, ids)
  } else if (tx.exported) {
    w.raw(idBytes(net.blockchainIds[tx.exported.destinationChain]))
    outputs(w, tx.exported.utxos, ids)
  }
  return true
}

/**
 * A RewardValidatorTx's signed bytes (codec version included) from the served id of the tx it
 * rewards: its only field, and no credentials. The same bytes as `writeTx` writes for its record.
 */
export const rewardTxBytes = (rewarded: Uint8Array): Uint8Array => {
  const out = new Uint8Array(2 + 4 + 32 + 4)
  const view = new DataView(out.buffer)
  view.setUint32(2, P_TX.RewardValidatorTx)
  out.set(rewarded, 6)
  return out
}

/**
 * Writes tx's signed bytes without the codec version (as a block holds them): the unsigned tx,
 * then its credentials. False, with the writer as it was, for a tx this encoder does not cover.
 */
export const writeTx = (w: Writer, net: PrimaryNetwork, tx: TxRecord, ids: IdMap): boolean => {
  const start = w.length
  if (!unsigned(w, net, tx, ids)) {
    w.truncate(start)
    return false
  }
  const credentials = net.json.signatures(tx)
  w.u32(credentials.length)
  for (const sigs of credentials) {
    w.u32(SECP.Credential)
    w.u32(sigs.length)
    for (const sig of sigs) w.raw(sig)
  }
  return true
}
