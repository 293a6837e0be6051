/**
 * The node's encodings of txs and blocks (avm.getTx / platform.getTx / …getBlock): "json" follows
 * avalanchego's field names (seed: Resources — unsignedTx, credentials, id; P-chain JSON block);
 * "hex" is a deterministic serialization with real UTXO bytes for outputs, 0x-prefixed with the
 * node's 4-byte checksum. uint64 fields are bigint: serialize them with a bigint-aware stringifier
 * (the node writes raw digits) or as decimal strings, as the JSON-RPC layer decides.
 */
import { SECP256K1_FX_ID } from "../constants.ts"
import { avax } from "./avax.ts"
import type { NetCtx } from "./context.ts"
import { fromCb58, hex0x } from "./ids.ts"
import type { BlockRecord, L1ValidatorSeed, Owners, TxRecord, UtxoRecord } from "./types.ts"
import { encodeUtxo } from "./utxoCodec.ts"

export type JsonValue = string | number | bigint | boolean | null | ReadonlyArray<JsonValue> | { readonly [k: string]: JsonValue }
type JsonObject = { [k: string]: JsonValue }

/** avalanchego codec type ids of the txs and blocks this world issues. */
const TYPE_ID: Readonly<Record<string, number>> = {
  "X:BaseTx": 0,
  "X:CreateAssetTx": 1,
  "X:ImportTx": 3,
  "X:ExportTx": 4,
  "P:AddValidatorTx": 12,
  "P:AddDelegatorTx": 14,
  "P:CreateChainTx": 15,
  "P:CreateSubnetTx": 16,
  "P:ImportTx": 17,
  "P:ExportTx": 18,
  "P:RewardValidatorTx": 20,
  "P:AddPermissionlessValidatorTx": 25,
  "P:AddPermissionlessDelegatorTx": 26,
  "P:BaseTx": 34,
  "P:ConvertSubnetToL1Tx": 35,
  "P:RegisterL1ValidatorTx": 36,
  "P:SetL1ValidatorWeightTx": 37,
  "P:IncreaseL1ValidatorBalanceTx": 38,
  "P:DisableL1ValidatorTx": 39
}
const BLOCK_TYPE_ID: Readonly<Record<string, number>> = { BanffProposalBlock: 29, BanffStandardBlock: 32, StandardBlock: 0 }

const u32 = (n: number): Uint8Array => new avax.Int(n).toBytes()
const u64 = (n: bigint): Uint8Array => new avax.BigIntPr(n).toBytes()
const idBytes = (id: string): Uint8Array => fromCb58(id) ?? new Uint8Array(32)

export class TxJson {
  constructor(private readonly ctx: NetCtx) {}

  private addresses(chain: "P" | "X", o: Owners): string[] {
    return o.addresses.map((a) => this.ctx.chainAddressOf(chain, a))
  }

  private owner(chain: "P" | "X", o: Owners): JsonObject {
    return { addresses: this.addresses(chain, o), locktime: o.locktime, threshold: o.threshold }
  }

  private output(chain: "P" | "X", u: UtxoRecord): JsonObject {
    const transfer: JsonObject = { addresses: this.addresses(chain, u.owners), amount: u.amount, locktime: u.owners.locktime, threshold: u.owners.threshold }
    return {
      assetID: u.assetId,
      fxID: SECP256K1_FX_ID,
      output: u.stakeableLocktime > 0n ? { locktime: u.stakeableLocktime, output: transfer } : transfer
    }
  }

  private input(u: UtxoRecord): JsonObject {
    return {
      txID: u.txId,
      outputIndex: u.outputIndex,
      assetID: u.assetId,
      fxID: SECP256K1_FX_ID,
      input: { amount: u.amount, signatureIndices: Array.from({ length: u.owners.threshold }, (_, i) => i) }
    }
  }

  /** One credential per consumed input, in input order: its signatures (65 bytes each), one per signer. */
  signatures(tx: TxRecord): Uint8Array[][] {
    if (tx.type === "RewardValidatorTx") return []
    const consumed = [...tx.inputs, ...(tx.imported?.utxos ?? [])]
    return consumed.map((u, k) => Array.from({ length: u.owners.threshold }, (_, s) => this.ctx.bytes(65, "sig", tx.id, k, s)))
  }

  private credentials(tx: TxRecord): JsonValue[] {
    return this.signatures(tx).map((sigs): JsonValue => {
      const signatures = sigs.map(hex0x)
      return tx.chain === "X" ? { fxID: SECP256K1_FX_ID, credential: { signatures } } : { signatures }
    })
  }

  private validatorJson(tx: TxRecord): JsonObject {
    const s = tx.staking
    if (!s) return {}
    return { nodeID: s.nodeId, start: BigInt(s.start), end: BigInt(s.end), weight: s.weight }
  }

  private l1ValidatorJson(v: L1ValidatorSeed): JsonObject {
    return {
      nodeID: v.nodeId,
      weight: v.weight,
      balance: v.balance,
      signer: { publicKey: v.signer.publicKey, proofOfPossession: v.signer.proofOfPossession },
      remainingBalanceOwner: { addresses: this.addresses("P", v.remainingBalanceOwner), threshold: v.remainingBalanceOwner.threshold },
      deactivationOwner: { addresses: this.addresses("P", v.deactivationOwner), threshold: v.deactivationOwner.threshold }
    }
  }

  /** Fields a tx type adds to the base tx (avalanchego JSON names). */
  private typeFields(tx: TxRecord): JsonObject {
    const ctx = this.ctx
    const s = tx.staking
    const stake = (tx.stake ?? []).map((u) => this.output("P", u))
    switch (tx.type) {
      case "AddValidatorTx":
        return { validator: this.validatorJson(tx), stake, rewardsOwner: this.owner("P", s?.rewardOwner as Owners), shares: s?.shares ?? 0 }
      case "AddPermissionlessValidatorTx":
        return {
          validator: this.validatorJson(tx),
          subnetID: s?.subnetId ?? "",
          signer: s?.signer ? { publicKey: s.signer.publicKey, proofOfPossession: s.signer.proofOfPossession } : null,
          stake,
          validationRewardsOwner: this.owner("P", s?.rewardOwner as Owners),
          delegationRewardsOwner: this.owner("P", (s?.delegationRewardOwner ?? s?.rewardOwner) as Owners),
          shares: s?.shares ?? 0
        }
      case "AddDelegatorTx":
        return { validator: this.validatorJson(tx), stake, rewardsOwner: this.owner("P", s?.rewardOwner as Owners) }
      case "AddPermissionlessDelegatorTx":
        return { validator: this.validatorJson(tx), subnetID: s?.subnetId ?? "", stake, rewardsOwner: this.owner("P", s?.rewardOwner as Owners) }
      case "CreateAssetTx":
        return {
          name: tx.asset?.name ?? "",
          symbol: tx.asset?.symbol ?? "",
          denomination: tx.asset?.denomination ?? 0,
          initialStates: [{ fxIndex: 0, fxID: SECP256K1_FX_ID, outputs: tx.outputs.map((u) => this.output("X", u).output as JsonValue) }]
        }
      default:
        break
    }
    if (tx.imported) {
      return { sourceChain: ctx.chainIds[tx.imported.sourceChain], importedInputs: tx.imported.utxos.map((u) => this.input(u)) }
    }
    if (tx.exported) {
      const dest = tx.exported.destinationChain
      return { destinationChain: ctx.chainIds[dest], exportedOutputs: tx.exported.utxos.map((u) => this.output(dest === "C" ? "X" : dest, u)) }
    }
    const l1 = tx.l1
    if (!l1) return {}
    const auth = { signatureIndices: [0] }
    switch (l1.kind) {
      case "createSubnet":
        return { owner: this.owner("P", l1.owner) }
      case "createChain":
        return {
          subnetID: l1.subnetId,
          chainName: l1.chainName,
          vmID: l1.vmId,
          fxIDs: [],
          genesisData: hex0x(Buffer.from(JSON.stringify(l1.genesis))),
          subnetAuthorization: auth
        }
      case "convert":
        return { subnetID: l1.subnetId, chainID: l1.chainId, address: l1.managerAddress, validators: l1.validators.map((v) => this.l1ValidatorJson(v)), subnetAuthorization: auth }
      case "register":
        return { balance: l1.validator.balance, proofOfPossession: l1.validator.signer.proofOfPossession, message: hex0x(ctx.bytes(120, "register-msg", tx.id)) }
      case "setWeight":
        return { message: hex0x(ctx.bytes(96, "weight-msg", tx.id)) }
      case "increaseBalance":
        return { validationID: l1.validationId, balance: l1.amount }
      case "disable":
        return { validationID: l1.validationId, disableAuthorization: auth }
    }
  }

  /** {unsignedTx, credentials, id}: the node's json encoding of a tx. */
  tx(tx: TxRecord): JsonObject {
    const chain = tx.chain
    if (tx.type === "RewardValidatorTx") {
      return { unsignedTx: { txID: tx.rewardedTxId ?? "" }, credentials: [], id: tx.id }
    }
    const unsignedTx: JsonObject = {
      networkID: this.ctx.networkId,
      blockchainID: this.ctx.chainIds[chain],
      outputs: tx.outputs.map((u) => this.output(chain, u)),
      inputs: tx.inputs.map((u) => this.input(u)),
      memo: hex0x(tx.memo),
      ...this.typeFields(tx)
    }
    if (tx.type === "CreateAssetTx") unsignedTx.outputs = []
    return { unsignedTx, credentials: this.credentials(tx), id: tx.id }
  }

  /** Deterministic bytes of a tx: codec version, type id, ids, real UTXO bytes of its outputs. */
  txBytes(tx: TxRecord): Uint8Array {
    const outs = [...tx.outputs, ...(tx.stake ?? []), ...(tx.exported?.utxos ?? [])]
    const ins = [...tx.inputs, ...(tx.imported?.utxos ?? [])]
    return avax.utils.concatBytes(
      new avax.Short(0).toBytes(),
      u32(TYPE_ID[`${tx.chain}:${tx.type}`] ?? 0),
      u32(this.ctx.networkId),
      idBytes(this.ctx.chainIds[tx.chain]),
      u32(outs.length),
      ...outs.map((u) => encodeUtxo(tx.chain, { ...u, locktime: u.owners.locktime, threshold: u.owners.threshold, addresses: u.owners.addresses })),
      u32(ins.length),
      ...ins.flatMap((u) => [idBytes(u.txId), u32(u.outputIndex), u64(u.amount)]),
      u32(tx.memo.length),
      tx.memo
    )
  }

  /** The node's hex encoding: 0x + bytes + checksum. */
  txHex(tx: TxRecord): string {
    return avax.utils.bufferToHex(avax.utils.addChecksum(this.txBytes(tx)))
  }

  /** The node's json encoding of a block: parentID, height, time, txs (each {unsignedTx, credentials, id}). */
  block(b: BlockRecord, txs: ReadonlyArray<TxRecord>): JsonObject {
    return {
      parentID: b.parentId,
      height: b.height,
      time: BigInt(b.timestamp),
      txs: txs.map((t) => this.tx(t)),
      id: b.id
    }
  }

  /** Deterministic hex of a block: codec version, type id, parent, time, height, then its txs' bytes. */
  blockHex(b: BlockRecord, txs: ReadonlyArray<TxRecord>): string {
    const bytes = avax.utils.concatBytes(
      new avax.Short(0).toBytes(),
      u32(BLOCK_TYPE_ID[b.blockType] ?? 0),
      idBytes(b.parentId),
      u64(BigInt(b.timestamp)),
      u64(b.height),
      u32(txs.length),
      ...txs.map((t) => this.txBytes(t))
    )
    return avax.utils.bufferToHex(avax.utils.addChecksum(bytes))
  }
}
