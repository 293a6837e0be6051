/**
 * The node's json encoding of txs and blocks (avm.getTx / platform.getTx / …getBlock with
 * encoding json): what avalanchego's handlers produce with Go's json.Marshal after InitCtx, so
 * field names are the structs' json tags (vms/platformvm/txs, vms/platformvm/block, vms/avm/txs,
 * vms/avm/block, vms/components/avax, vms/secp256k1fx), embedded structs are flattened, and:
 * - uint64 and uint32 are JSON numbers (bigint here: the HTTP layer writes them as the integers
 *   they are, never through a double);
 * - ids are cb58, node ids "NodeID-…", addresses of secp256k1fx owners "P-avax1…" (their
 *   MarshalJSON, with the chain's context), but the addresses of an L1 validator's owners are bare
 *   cb58 short ids (warp/message PChainOwner has no MarshalJSON);
 * - types.JSONByteSlice (memo, message, address, an L1 validator's nodeID) is "0x" hex, a Go
 *   []byte (genesisData) base64, a Go [96]byte (RegisterL1ValidatorTx's proofOfPossession) an array
 *   of 96 numbers;
 * - parsed blocks never hold nil slices (the codec makes empty ones), so an empty list is [].
 * The world's ids are written as they are; the HTTP layer swaps them for the served ones.
 */
import { SECP256K1_FX_ID } from "../constants.ts"
import { cb58 } from "../cb58.ts"
import type { NetCtx } from "./context.ts"
import { hex0x, nodeIdBytes } from "./ids.ts"
import { sortAddresses } from "./codec/owners.ts"
import type { BlockRecord, L1ValidatorSeed, Owners, TxRecord, UtxoRecord } from "./types.ts"

export type JsonValue = string | number | bigint | boolean | null | ReadonlyArray<JsonValue> | { readonly [k: string]: JsonValue }
type JsonObject = { [k: string]: JsonValue }

const hexBytes = (hex: string): Buffer => Buffer.from(hex.replace(/^0x/, ""), "hex")

/** Types whose unsigned tx carries a subnet owner's authorization, and so one more credential. */
const SUBNET_AUTH = new Set(["CreateChainTx", "AddSubnetValidatorTx", "RemoveSubnetValidatorTx", "TransformSubnetTx", "TransferSubnetOwnershipTx", "ConvertSubnetToL1Tx", "DisableL1ValidatorTx"])

export class TxJson {
  constructor(private readonly ctx: NetCtx) {}

  /** An owner's addresses in the order the bytes hold them: sorted, as the codec requires (secp256k1fx OutputOwners.Verify). */
  private addresses(chain: "P" | "X", o: Owners): string[] {
    return sortAddresses(o.addresses).map((a) => this.ctx.chainAddressOf(chain, a))
  }

  /** secp256k1fx.OutputOwners' MarshalJSON: a map, so its keys come sorted. */
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
    const transfer: JsonObject = { amount: u.amount, signatureIndices: Array.from({ length: u.owners.threshold }, (_, i) => i) }
    return {
      txID: u.txId,
      outputIndex: u.outputIndex,
      assetID: u.assetId,
      fxID: SECP256K1_FX_ID,
      input: u.stakeableLocktime > 0n ? { locktime: u.stakeableLocktime, input: transfer } : transfer
    }
  }

  /**
   * The tx's credentials, in order: one per consumed input (its signatures, 65 bytes each, one per
   * signer), then one for the subnet owner's authorization where the tx carries one.
   */
  signatures(tx: TxRecord): Uint8Array[][] {
    if (tx.type === "RewardValidatorTx" || tx.type === "AdvanceTimeTx") return []
    const consumed = [...tx.inputs, ...(tx.imported?.utxos ?? [])]
    const spends = consumed.map((u, k) => Array.from({ length: u.owners.threshold }, (_, s) => this.ctx.bytes(65, "sig", tx.id, k, s)))
    // an OperationTx's operations are signed after its inputs (vms/avm/txs/operation_tx.go), one credential each
    const operations = tx.operation ? [[this.ctx.bytes(65, "sig", tx.id, "operation")]] : []
    return SUBNET_AUTH.has(tx.type) ? [...spends, [this.ctx.bytes(65, "sig", tx.id, "subnet-auth")]] : [...spends, ...operations]
  }

  private credentials(tx: TxRecord): JsonValue[] {
    return this.signatures(tx).map((sigs): JsonValue => {
      const signatures = sigs.map(hex0x)
      return tx.chain === "X" ? { fxID: SECP256K1_FX_ID, credential: { signatures } } : { signatures }
    })
  }

  private validator(nodeId: string, start: number, end: number, weight: bigint): JsonObject {
    return { nodeID: nodeId, start: BigInt(start), end: BigInt(end), weight }
  }

  /** warp/message PChainOwner: plain struct, addresses as ids.ShortID's cb58. */
  private pChainOwner(o: Owners): JsonObject {
    return { threshold: o.threshold, addresses: sortAddresses(o.addresses).map((a) => cb58(a)) }
  }

  private l1Validator(v: L1ValidatorSeed): JsonObject {
    return {
      nodeID: hex0x(nodeIdBytes(v.nodeId) ?? new Uint8Array(20)),
      weight: v.weight,
      balance: v.balance,
      signer: { publicKey: v.signer.publicKey, proofOfPossession: v.signer.proofOfPossession },
      remainingBalanceOwner: this.pChainOwner(v.remainingBalanceOwner),
      deactivationOwner: this.pChainOwner(v.deactivationOwner)
    }
  }

  /** Fields a P-chain staker tx adds to the base tx. */
  private stakerFields(tx: TxRecord): JsonObject {
    const s = tx.staking
    if (!s) throw new Error(`${tx.type} ${tx.id} has no staking details`)
    const validator = this.validator(s.nodeId, s.start, s.end, s.weight)
    const stake = (tx.stake ?? []).map((u) => this.output("P", u))
    const rewards = this.owner("P", s.rewardOwner)
    switch (tx.type) {
      case "AddValidatorTx":
        return { validator, stake, rewardsOwner: rewards, shares: s.shares ?? 0 }
      case "AddDelegatorTx":
        return { validator, stake, rewardsOwner: rewards }
      case "AddPermissionlessValidatorTx":
        return {
          validator,
          subnetID: s.subnetId,
          // signer.Empty is an empty struct
          signer: s.signer ? { publicKey: s.signer.publicKey, proofOfPossession: s.signer.proofOfPossession } : {},
          stake,
          validationRewardsOwner: rewards,
          delegationRewardsOwner: this.owner("P", s.delegationRewardOwner ?? s.rewardOwner),
          shares: s.shares ?? 0
        }
      default:
        return { validator, subnetID: s.subnetId, stake, rewardsOwner: rewards }
    }
  }

  /** Fields a tx type adds to the base tx (avalanchego's json tags, in struct order). */
  private typeFields(tx: TxRecord): JsonObject {
    const auth = { signatureIndices: [0] }
    if (tx.staking) return this.stakerFields(tx)
    if (tx.type === "CreateAssetTx") {
      // a secp256k1fx.MintOutput embeds OutputOwners, whose MarshalJSON it takes
      const mint = tx.asset?.mintOwner === undefined ? [] : [this.owner("X", tx.asset.mintOwner)]
      return {
        name: tx.asset?.name ?? "",
        symbol: tx.asset?.symbol ?? "",
        denomination: tx.asset?.denomination ?? 0,
        initialStates: [{ fxIndex: 0, fxID: SECP256K1_FX_ID, outputs: [...mint, ...tx.outputs.map((u) => this.output("X", u).output as JsonValue)] }]
      }
    }
    const op = tx.operation
    if (op) {
      // vms/avm/txs/operation.go: Asset flattened, inputIDs, fxID; secp256k1fx.MintOperation's three fields
      const to = this.owner("X", op.to)
      const transferOutput: JsonObject = { addresses: to["addresses"] as JsonValue, amount: op.amount, locktime: to["locktime"] as JsonValue, threshold: to["threshold"] as JsonValue }
      const operation = { mintInput: { signatureIndices: [0] }, mintOutput: this.owner("X", op.minter), transferOutput }
      return { operations: [{ assetID: op.assetId, inputIDs: [{ txID: op.spends.txId, outputIndex: op.spends.outputIndex }], fxID: SECP256K1_FX_ID, operation }] }
    }
    if (tx.imported) return { sourceChain: this.ctx.chainIds[tx.imported.sourceChain], importedInputs: tx.imported.utxos.map((u) => this.input(u)) }
    // exported outputs are formatted with the exporting chain's context, as every output of the tx
    if (tx.exported) return { destinationChain: this.ctx.chainIds[tx.exported.destinationChain], exportedOutputs: tx.exported.utxos.map((u) => this.output(tx.chain, u)) }
    const sub = tx.subnet
    if (sub) {
      switch (sub.kind) {
        case "addValidator":
          return { validator: { ...this.validator(sub.nodeId, sub.start, sub.end, sub.weight), subnetID: sub.subnetId }, subnetAuthorization: auth }
        case "removeValidator":
          return { nodeID: sub.nodeId, subnetID: sub.subnetId, subnetAuthorization: auth }
        case "transform":
          return { subnetID: sub.subnetId, assetID: sub.assetId, ...sub.rules, subnetAuthorization: auth }
        case "transferOwnership":
          return { subnetID: sub.subnetId, subnetAuthorization: auth, newOwner: this.owner("P", sub.owner) }
      }
    }
    const l1 = tx.l1
    if (!l1) return {}
    switch (l1.kind) {
      case "createSubnet":
        return { owner: this.owner("P", l1.owner) }
      case "createChain":
        return {
          subnetID: l1.subnetId,
          chainName: l1.chainName,
          vmID: l1.vmId,
          fxIDs: [],
          genesisData: Buffer.from(JSON.stringify(l1.genesis)).toString("base64"),
          subnetAuthorization: auth
        }
      case "convert":
        return { subnetID: l1.subnetId, chainID: l1.chainId, address: l1.managerAddress, validators: l1.validators.map((v) => this.l1Validator(v)), subnetAuthorization: auth }
      case "register":
        return { balance: l1.validator.balance, proofOfPossession: [...hexBytes(l1.validator.signer.proofOfPossession)], message: this.message(tx) }
      case "setWeight":
        return { message: this.message(tx) }
      case "increaseBalance":
        return { validationID: l1.validationId, balance: l1.amount }
      case "disable":
        return { validationID: l1.validationId, disableAuthorization: auth }
    }
  }

  /** The warp message an L1 validator tx carries, as its json shows it (txBytes.ts reads it from here). */
  message(tx: TxRecord): string {
    return hex0x(tx.l1?.kind === "register" ? this.ctx.bytes(120, "register-msg", tx.id) : this.ctx.bytes(96, "weight-msg", tx.id))
  }

  /** {unsignedTx, credentials, id}: the node's json encoding of a tx. */
  tx(tx: TxRecord): JsonObject {
    const chain = tx.chain
    if (tx.type === "RewardValidatorTx") return { unsignedTx: { txID: tx.rewardedTxId ?? "" }, credentials: [], id: tx.id }
    if (tx.type === "AdvanceTimeTx") return { unsignedTx: { time: BigInt(tx.advanceTime ?? 0) }, credentials: [], id: tx.id }
    const unsignedTx: JsonObject = {
      networkID: this.ctx.networkId,
      blockchainID: this.ctx.chainIds[chain],
      outputs: tx.type === "CreateAssetTx" ? [] : tx.outputs.map((u) => this.output(chain, u)),
      inputs: tx.inputs.map((u) => this.input(u)),
      memo: hex0x(tx.memo),
      ...this.typeFields(tx)
    }
    return { unsignedTx, credentials: this.credentials(tx), id: tx.id }
  }

  /**
   * The node's json encoding of a block: the struct of its type (vms/platformvm/block,
   * vms/avm/block/standard_block.go), with `id` and its txs.
   */
  block(b: BlockRecord, txs: ReadonlyArray<TxRecord>): JsonObject {
    const common: JsonObject = { parentID: b.parentId, height: b.height, id: b.id }
    const time = BigInt(b.timestamp)
    const all = txs.map((t) => this.tx(t))
    switch (b.blockType) {
      case "StandardBlock":
        return { parentID: b.parentId, height: b.height, time, merkleRoot: cb58(new Uint8Array(32)), txs: all, id: b.id }
      case "ApricotProposalBlock":
      case "ApricotAtomicBlock":
        return { ...common, tx: all[0] ?? null }
      case "ApricotStandardBlock":
        return { ...common, txs: all }
      case "ApricotCommitBlock":
      case "ApricotAbortBlock":
        return common
      case "BanffProposalBlock":
        // `txs` are decision txs issued with the proposal (none so far); `tx` is the proposal
        return { time, txs: all.slice(0, -1), ...common, tx: all[all.length - 1] ?? null }
      case "BanffStandardBlock":
        return { time, ...common, txs: all }
      case "BanffCommitBlock":
      case "BanffAbortBlock":
        return { time, ...common }
      case "EVMBlock":
        throw new Error("C-chain blocks have no node json here")
    }
  }
}
