/**
 * The staker adds of the staking schedule as the hashing pass needs them (servedIds.ts): their id,
 * their time in the block, and their signed bytes written straight from the schedule. Hashing a
 * chain builds every staker add once, and their records (stakingTxs.ts) name blocks, reward
 * blocks, spenders and outputs that no byte of the tx holds: building those cost more than
 * hashing the tx. The bytes are the ones directTx.ts writes for the record
 * (packages/emulator/test/primary/selfWritten.test.ts compares them for every staker add of a world).
 */
import { PRIMARY_SUBNET_ID } from "../constants.ts"
import type { NetCtx, PxChain } from "./context.ts"
import { bytesVia, idBytes, type IdBytesMap, type IdMap } from "./codec/idBytes.ts"
import { P_TX, SECP } from "./codec/typeIds.ts"
import { withWriter, type Writer } from "./codec/writer.ts"
import { Kind } from "./ids.ts"
import type { Delegation, Staking, Validation } from "./staking.ts"
import type { TxRecord } from "./types.ts"

/** What StakingTxs says of its txs that the bytes name: the ids and the change outputs. */
export interface StakerTxIds {
  validationTxId(v: Validation): string
  delegationTxId(d: Delegation): string
  change(kind: "v" | "d", i: number, j: number, k: number): bigint
}

/** A tx of a block being hashed that writes its own signed bytes (codec version first, as TxBytes.bytes). */
export interface SelfWritten {
  readonly id: string
  readonly chain: PxChain
  readonly type: TxRecord["type"]
  readonly issueTime: number
  /** Its bytes, the ids they name mapped by `ids`, or by `bytesOf` straight to their bytes where given. */
  signed(ids: IdMap, bytesOf?: IdBytesMap): Uint8Array
}


const hexBytes = (hex: string): Uint8Array => Buffer.from(hex.replace(/^0x/, ""), "hex")

/** One-address owners, threshold 1, no locktime (ctx.owner: every output these writers write). */
const writeOwners = (w: Writer, address: Uint8Array): void => {
  w.u64(0n)
  w.u32(1)
  w.u32(1)
  w.raw(address)
}

/** A TransferableOutput of `asset` (its id's bytes) to one address. */
export const writeOutput = (w: Writer, asset: Uint8Array, amount: bigint, address: Uint8Array): void => {
  w.raw(asset)
  w.u32(SECP.TransferOutput)
  w.u64(amount)
  writeOwners(w, address)
}

/** A TransferableInput spending output `index` of `txId` (bytes), signed by its owner's one key. */
export const writeInput = (w: Writer, txId: Uint8Array, index: number, asset: Uint8Array, amount: bigint): void => {
  w.raw(txId)
  w.u32(index)
  w.raw(asset)
  w.u32(SECP.TransferInput)
  w.u64(amount)
  w.u32(1)
  w.u32(0)
}

/** The credentials, one signature a consumed input (TxJson.signatures), then the bytes copied out. */
export const writeCredentials = (w: Writer, ctx: NetCtx, id: string, inputs: number): Uint8Array => {
  w.u32(inputs)
  for (let k = 0; k < inputs; k++) {
    w.u32(SECP.Credential)
    w.u32(1)
    w.raw(ctx.bytesOnce(65, "sig", id, k, 0))
  }
  return w.copy()
}

/** AVAX's id bytes by network id: not hashed, served as it is. */
const avaxBytes = new Map<number, Uint8Array>()

/** The codec version, the tx's type id, its network and chain; then `rest` with AVAX's id bytes. */
export const writeTxStart = (ctx: NetCtx, chain: PxChain, type: number, rest: (w: Writer, avax: Uint8Array) => Uint8Array): Uint8Array =>
  withWriter((w) => {
    let avax = avaxBytes.get(ctx.networkId)
    if (avax === undefined) avaxBytes.set(ctx.networkId, (avax = idBytes(ctx.avaxAssetId)))
    w.u16(0)
    w.u32(type)
    w.u32(ctx.networkId)
    w.raw(idBytes(ctx.chainIds[chain]))
    return rest(w, avax)
  })

export class StakerAdds {
  private readonly subnet = idBytes(PRIMARY_SUBNET_ID)

  constructor(
    private readonly ctx: NetCtx,
    private readonly staking: Staking,
    private readonly txs: StakerTxIds
  ) {}

  validation(v: Validation): SelfWritten {
    const id = this.txs.validationTxId(v)
    return { id, chain: "P", type: v.permissionless ? "AddPermissionlessValidatorTx" : "AddValidatorTx", issueTime: v.issue, signed: (ids, bytesOf = bytesVia(ids)) => this.validationBytes(v, id, bytesOf) }
  }

  delegation(d: Delegation): SelfWritten {
    const id = this.txs.delegationTxId(d)
    return { id, chain: "P", type: d.permissionless ? "AddPermissionlessDelegatorTx" : "AddDelegatorTx", issueTime: d.issue, signed: () => this.delegationBytes(d, id) }
  }

  /** A validation's stake in its node's parts (StakingTxs.validationStake). */
  private parts(v: Validation): bigint[] {
    const n = v.node.stakeOutputs
    const share = v.stake / BigInt(n)
    return Array.from({ length: n }, (_, k) => (k === n - 1 ? v.stake - share * BigInt(n - 1) : share))
  }

  private validationBytes(v: Validation, id: string, ids: IdBytesMap): Uint8Array {
    const { ctx } = this
    const n = v.node
    const owner = ctx.addressView(n.wallet, 0)
    const fee = ctx.cfg.txFee
    const change = this.txs.change("v", n.index, v.j, 0)
    const prev = this.staking.validation(n, v.j - 1)
    // the one id the bytes name that a tx of this world made: the stake the node's last period returned
    const restakedFrom = prev && ids(this.txs.validationTxId(prev))
    const funding = ctx.idBytes(Kind.GenesisAllocation, n.index, v.j, 0)
    return writeTxStart(ctx, "P", v.permissionless ? P_TX.AddPermissionlessValidatorTx : P_TX.AddValidatorTx, (w, avax) => {
      w.u32(1)
      writeOutput(w, avax, change, owner)
      const restaked = prev ? this.parts(prev) : []
      w.u32(restaked.length + 1)
      restaked.forEach((amount, k) => writeInput(w, restakedFrom!, 1 + k, avax, amount))
      writeInput(w, funding, 0, avax, fee + change + (prev ? 0n : v.stake))
      w.bytes(new Uint8Array(0))
      w.raw(n.nodeIdBytes)
      w.u64(BigInt(v.start))
      w.u64(BigInt(v.end))
      w.u64(v.stake)
      if (v.permissionless) {
        w.raw(this.subnet)
        if (n.signer) {
          w.u32(P_TX.ProofOfPossession)
          w.raw(hexBytes(n.signer.publicKey))
          w.raw(hexBytes(n.signer.proofOfPossession))
        } else w.u32(P_TX.SignerEmpty)
      }
      const stake = this.parts(v)
      w.u32(stake.length)
      for (const amount of stake) writeOutput(w, avax, amount, owner)
      w.u32(SECP.OutputOwners)
      writeOwners(w, owner)
      if (v.permissionless) {
        w.u32(SECP.OutputOwners)
        writeOwners(w, owner)
      }
      w.u32(n.shares)
      return writeCredentials(w, ctx, id, restaked.length + 1)
    })
  }

  /** A delegation names no tx of the world: its funding is served as made. */
  private delegationBytes(d: Delegation, id: string): Uint8Array {
    const { ctx } = this
    const v = d.validation
    const owner = ctx.addressView(d.wallet, 0)
    const change = this.txs.change("d", v.node.index, v.j, d.k)
    const funding = ctx.idBytes(Kind.GenesisAllocation, v.node.index, v.j, 1 + d.k)
    return writeTxStart(ctx, "P", d.permissionless ? P_TX.AddPermissionlessDelegatorTx : P_TX.AddDelegatorTx, (w, avax) => {
      w.u32(1)
      writeOutput(w, avax, change, owner)
      w.u32(1)
      writeInput(w, funding, 0, avax, ctx.cfg.txFee + change + d.amount)
      w.bytes(new Uint8Array(0))
      w.raw(v.node.nodeIdBytes)
      w.u64(BigInt(d.start))
      w.u64(BigInt(d.end))
      w.u64(d.amount)
      if (d.permissionless) w.raw(this.subnet)
      w.u32(1)
      writeOutput(w, avax, d.amount, owner)
      w.u32(SECP.OutputOwners)
      writeOwners(w, owner)
      return writeCredentials(w, ctx, id, 1)
    })
  }
}
