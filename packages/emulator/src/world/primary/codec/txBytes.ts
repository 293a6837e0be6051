/**
 * Signed-tx bytes in avalanchego's codec layout, built from the world's tx records with
 * avalanchejs' serializables, so a client (avalanchejs' AVMApi.getTx included) parses the hex the
 * node methods return. The world's own TxJson.txHex is a private layout no client can parse.
 *
 * Every id inside goes through `ids`: the served ids (servedIds.ts) hash these bytes, so the bytes
 * must name other txs (consumed outputs, assets, subnets) by their served ids too.
 *
 * What is not real: inputs and outputs keep the
 * world's order (the node would sort them) because output indices name UTXOs; BLS keys and proofs
 * are the world's pseudo-random bytes, written raw because avalanchejs refuses to build a
 * ProofOfPossession that does not verify. Signatures and L1 messages are the ones the world's json
 * encoding shows (txJson.ts), so both encodings of a tx carry the same values.
 */
import { SUBNET_EVM_VM_ID } from "../l1.ts"
import { Lru } from "../lru.ts"
import type { PrimaryNetwork } from "../index.ts"
import type { MintOperationInfo, Owners, TxRecord, UtxoRecord } from "../types.ts"
import { sortAddresses } from "./owners.ts"
import { lib, type Primitive, type Serializable } from "./avalanche.ts"
import { writeTx } from "./directTx.ts"
import { idBytes, type IdMap } from "./idBytes.ts"
import { withWriter } from "./writer.ts"

const { Id, Int, BigIntPr, Bytes, Address } = lib

const CODEC_VERSION = 0

const hexBytes = (hex: string): Uint8Array => Buffer.from(hex.replace(/^0x/, ""), "hex")

/** A serializable that writes fixed bytes under a registered type (PoP, BLS signature, reward tx). */
const raw = (type: string, bytes: Uint8Array): Serializable => {
  const _type = lib.TypeSymbols[type]
  if (!_type) throw new Error(`avalanchejs has no type ${type}`)
  return { _type, toBytes: () => bytes }
}

const proofOfPossession = (publicKey: string, proof: string): Serializable =>
  raw("ProofOfPossession", lib.utils.concatBytes(hexBytes(publicKey), hexBytes(proof)))

const outputOwners = (o: Owners): Serializable =>
  new lib.OutputOwners(new BigIntPr(o.locktime), new Int(o.threshold), sortAddresses(o.addresses).map((a) => new Address(a)))

const pChainOwner = (o: Owners): Serializable => new lib.PChainOwner(new Int(o.threshold), sortAddresses(o.addresses).map((a) => new Address(a)))

/** Maps an id of the world to the id the node serves for it (identity for ids that are not hashed). */
export type { IdMap } from "./idBytes.ts"

const transferableOutput = (ids: IdMap) => (u: UtxoRecord): Serializable => {
  const transfer = new lib.TransferOutput(new BigIntPr(u.amount), outputOwners(u.owners))
  const out = u.stakeableLocktime > 0n ? new lib.pvmSerial.StakeableLockOut(new BigIntPr(u.stakeableLocktime), transfer) : transfer
  return new lib.TransferableOutput(idOf(ids(u.assetId)), out)
}

const signatureIndices = (u: UtxoRecord): Primitive[] => Array.from({ length: u.owners.threshold }, (_, i) => new Int(i))

const transferableInput = (ids: IdMap) => (u: UtxoRecord): Serializable => {
  const transfer = new lib.TransferInput(new BigIntPr(u.amount), new lib.Input(signatureIndices(u)))
  const input = u.stakeableLocktime > 0n ? new lib.pvmSerial.StakeableLockIn(new BigIntPr(u.stakeableLocktime), transfer) : transfer
  return new lib.TransferableInput(new lib.avaxSerial.UTXOID(idOf(ids(u.txId)), new Int(u.outputIndex)), idOf(ids(u.assetId)), input)
}

const firstSignerAuth = (): Serializable => new lib.Input([new Int(0)])

const idOf = (s: string): Primitive => new Id(idBytes(s))
/** NodeId primitives by their string (immutable; decoding one is a base58 decode): a node validates again and again. */
const nodeIds = new Lru<string, Primitive>(100_000)
const nodeIdOf = (s: string): Primitive => nodeIds.get(s, () => lib.NodeId.fromString(s))

export class TxBytes {
  private readonly outputOf: (u: UtxoRecord) => Serializable
  private readonly inputOf: (u: UtxoRecord) => Serializable

  constructor(
    private readonly net: PrimaryNetwork,
    private readonly ids: IdMap,
    /** Written by directTx.ts where it covers the tx (false: always by avalanchejs, as the tests' reference). */
    private readonly direct = true
  ) {
    this.outputOf = transferableOutput(ids)
    this.inputOf = transferableInput(ids)
  }

  private id(s: string): Primitive {
    return idOf(this.ids(s))
  }

  private avaxBaseTx(tx: TxRecord, outputs: ReadonlyArray<UtxoRecord>): Serializable {
    return new lib.avaxSerial.BaseTx(
      new Int(this.net.networkId),
      idOf(this.net.blockchainIds[tx.chain]),
      outputs.map(this.outputOf),
      tx.inputs.map(this.inputOf),
      new Bytes(tx.memo)
    )
  }

  private xUnsigned(tx: TxRecord): Serializable {
    const { avmSerial } = lib
    const ids = this.net.blockchainIds
    if (tx.type === "CreateAssetTx" && tx.asset) {
      // the minted outputs are the asset's initial state; their UTXO indices follow the (empty)
      // outputs; a variable-cap asset's mint output sorts first (its type id is the lower)
      const mint = tx.asset.mintOwner === undefined ? [] : [new lib.MintOutput(outputOwners(tx.asset.mintOwner))]
      const state = new avmSerial.InitialState(new Int(0), [
        ...mint,
        ...tx.outputs.map((u) => new lib.TransferOutput(new BigIntPr(u.amount), outputOwners(u.owners)))
      ])
      const { name, symbol, denomination } = tx.asset
      return new avmSerial.CreateAssetTx(this.avaxBaseTx(tx, []), new lib.Stringpr(name), new lib.Stringpr(symbol), new lib.Byte(new Uint8Array([denomination])), [state])
    }
    if (tx.operation) return new avmSerial.OperationTx(this.avaxBaseTx(tx, tx.outputs), [this.mintOperation(tx.operation)])
    if (tx.imported) return new avmSerial.ImportTx(this.avaxBaseTx(tx, tx.outputs), idOf(ids[tx.imported.sourceChain]), tx.imported.utxos.map(this.inputOf))
    if (tx.exported) return new avmSerial.ExportTx(this.avaxBaseTx(tx, tx.outputs), idOf(ids[tx.exported.destinationChain]), tx.exported.utxos.map(this.outputOf))
    return new avmSerial.BaseTx(this.avaxBaseTx(tx, tx.outputs))
  }

  /**
   * avax.TransferableOp (avalanchejs has the class but does not export it): the asset, the UTXOs
   * spent, then the fx operation with its type id (vms/avm/txs/operation.go).
   */
  private mintOperation(op: MintOperationInfo): Serializable {
    const mint = new lib.MintOperation(new lib.Input([new Int(0)]), new lib.MintOutput(outputOwners(op.minter)), new lib.TransferOutput(new BigIntPr(op.amount), outputOwners(op.to)))
    const utxo = new lib.avaxSerial.UTXOID(this.id(op.spends.txId), new Int(op.spends.outputIndex))
    return {
      _type: lib.TypeSymbols["TransferableOp"] as symbol,
      toBytes: (codec) => lib.utils.concatBytes(this.id(op.assetId).toBytes(), new Int(1).toBytes(), utxo.toBytes(codec), codec.PackPrefix(mint))
    }
  }

  private stakingUnsigned(tx: TxRecord, base: Serializable): Serializable {
    const { pvmSerial } = lib
    const s = tx.staking
    if (!s) throw new Error(`${tx.type} ${tx.id} has no staking details`)
    const validator = new pvmSerial.Validator(nodeIdOf(s.nodeId), new BigIntPr(BigInt(s.start)), new BigIntPr(BigInt(s.end)), new BigIntPr(s.weight))
    const stake = (tx.stake ?? []).map(this.outputOf)
    const subnetValidator = (): Serializable => new pvmSerial.SubnetValidator(validator, this.id(s.subnetId))
    switch (tx.type) {
      case "AddValidatorTx":
        return new pvmSerial.AddValidatorTx(base, validator, stake, outputOwners(s.rewardOwner), new Int(s.shares ?? 0))
      case "AddDelegatorTx":
        return new pvmSerial.AddDelegatorTx(base, validator, stake, outputOwners(s.rewardOwner))
      case "AddPermissionlessValidatorTx": {
        const signer = s.signer ? new pvmSerial.Signer(proofOfPossession(s.signer.publicKey, s.signer.proofOfPossession)) : new pvmSerial.SignerEmpty()
        const delegation = s.delegationRewardOwner ?? s.rewardOwner
        return new pvmSerial.AddPermissionlessValidatorTx(base, subnetValidator(), signer, stake, outputOwners(s.rewardOwner), outputOwners(delegation), new Int(s.shares ?? 0))
      }
      default:
        return new pvmSerial.AddPermissionlessDelegatorTx(base, subnetValidator(), stake, outputOwners(s.rewardOwner))
    }
  }

  private l1Unsigned(tx: TxRecord, base: Serializable): Serializable {
    const { pvmSerial } = lib
    const l1 = tx.l1
    if (!l1) throw new Error(`${tx.type} ${tx.id} has no L1 details`)
    const message = (): Primitive => new Bytes(hexBytes(this.net.json.message(tx)))
    switch (l1.kind) {
      case "createSubnet":
        return new pvmSerial.CreateSubnetTx(base, outputOwners(l1.owner))
      case "createChain":
        return new pvmSerial.CreateChainTx(
          base,
          this.id(l1.subnetId),
          new lib.Stringpr(l1.chainName),
          idOf(l1.vmId || SUBNET_EVM_VM_ID),
          [],
          new Bytes(Buffer.from(JSON.stringify(l1.genesis))),
          firstSignerAuth()
        )
      case "convert":
        return new pvmSerial.ConvertSubnetToL1Tx(
          base,
          this.id(l1.subnetId),
          this.id(l1.chainId),
          new Bytes(hexBytes(l1.managerAddress)),
          l1.validators.map(
            (v) =>
              new lib.L1Validator(
                new Bytes(lib.NodeId.fromString(v.nodeId).toBytes()),
                new BigIntPr(v.weight),
                new BigIntPr(v.balance),
                proofOfPossession(v.signer.publicKey, v.signer.proofOfPossession),
                pChainOwner(v.remainingBalanceOwner),
                pChainOwner(v.deactivationOwner)
              )
          ),
          firstSignerAuth()
        )
      case "register":
        return new pvmSerial.RegisterL1ValidatorTx(base, new BigIntPr(l1.validator.balance), raw("BlsSignature", hexBytes(l1.validator.signer.proofOfPossession)), message())
      case "setWeight":
        return new pvmSerial.SetL1ValidatorWeightTx(base, message())
      case "increaseBalance":
        return new pvmSerial.IncreaseL1ValidatorBalanceTx(base, this.id(l1.validationId), new BigIntPr(l1.amount))
      case "disable":
        return new pvmSerial.DisableL1ValidatorTx(base, this.id(l1.validationId), firstSignerAuth())
    }
  }

  /** Txs of a permissioned subnet's owner (archive.ts). */
  private subnetUnsigned(tx: TxRecord, base: Serializable): Serializable {
    const { pvmSerial } = lib
    const sub = tx.subnet
    if (!sub) throw new Error(`${tx.type} ${tx.id} has no subnet details`)
    switch (sub.kind) {
      case "addValidator": {
        const validator = new pvmSerial.Validator(nodeIdOf(sub.nodeId), new BigIntPr(BigInt(sub.start)), new BigIntPr(BigInt(sub.end)), new BigIntPr(sub.weight))
        return new pvmSerial.AddSubnetValidatorTx(base, new pvmSerial.SubnetValidator(validator, this.id(sub.subnetId)), firstSignerAuth())
      }
      case "removeValidator":
        return new pvmSerial.RemoveSubnetValidatorTx(base, nodeIdOf(sub.nodeId), this.id(sub.subnetId), firstSignerAuth())
      case "transform": {
        const r = sub.rules
        return new pvmSerial.TransformSubnetTx(
          base,
          this.id(sub.subnetId),
          this.id(sub.assetId),
          new BigIntPr(r.initialSupply),
          new BigIntPr(r.maximumSupply),
          new BigIntPr(r.minConsumptionRate),
          new BigIntPr(r.maxConsumptionRate),
          new BigIntPr(r.minValidatorStake),
          new BigIntPr(r.maxValidatorStake),
          new Int(r.minStakeDuration),
          new Int(r.maxStakeDuration),
          new Int(r.minDelegationFee),
          new BigIntPr(r.minDelegatorStake),
          new lib.Byte(new Uint8Array([r.maxValidatorWeightFactor])),
          new Int(r.uptimeRequirement),
          firstSignerAuth()
        )
      }
      case "transferOwnership":
        return new pvmSerial.TransferSubnetOwnershipTx(base, this.id(sub.subnetId), firstSignerAuth(), outputOwners(sub.owner))
    }
  }

  private pUnsigned(tx: TxRecord): Serializable {
    const { pvmSerial } = lib
    const ids = this.net.blockchainIds
    // avalanchejs registers RewardValidatorTx in its codec but does not export the class
    if (tx.type === "RewardValidatorTx") return raw("RewardValidatorTx", this.id(tx.rewardedTxId ?? "").toBytes())
    if (tx.type === "AdvanceTimeTx") return new pvmSerial.AdvanceTimeTx(new BigIntPr(BigInt(tx.advanceTime ?? 0)))
    const base = this.avaxBaseTx(tx, tx.outputs)
    if (tx.staking) return this.stakingUnsigned(tx, base)
    if (tx.subnet) return this.subnetUnsigned(tx, base)
    if (tx.l1) return this.l1Unsigned(tx, base)
    if (tx.imported) return new pvmSerial.ImportTx(base, idOf(ids[tx.imported.sourceChain]), tx.imported.utxos.map(this.inputOf))
    if (tx.exported) return new pvmSerial.ExportTx(base, idOf(ids[tx.exported.destinationChain]), tx.exported.utxos.map(this.outputOf))
    return new pvmSerial.BaseTx(base)
  }

  /**
   * Codec version + unsigned tx (with its type id) + credentials: the bytes the node hashes into a
   * tx id and hex-encodes. Packed here rather than by avalanchejs' SignedTx.toBytes, which cannot
   * tell the VM of a CreateAssetTx.
   */
  bytes(tx: TxRecord): Uint8Array {
    if (!this.direct) return this.codecBytes(tx)
    return withWriter((w) => {
      w.u16(CODEC_VERSION)
      return writeTx(w, this.net, tx, this.ids) ? w.copy() : this.codecBytes(tx)
    })
  }

  /** The same bytes built with avalanchejs' serializables: the reference directTx.ts is tested against. */
  codecBytes(tx: TxRecord): Uint8Array {
    const unsigned = tx.chain === "X" ? this.xUnsigned(tx) : this.pUnsigned(tx)
    const credentials = this.net.json.signatures(tx).map((sigs) => new lib.Credential(sigs.map((s) => new lib.Signature(s))))
    const manager = lib.utils.getManagerForVM(tx.chain === "X" ? "AVM" : "PVM")
    const codec = manager.getDefaultCodec()
    return lib.utils.concatBytes(new lib.Short(CODEC_VERSION).toBytes(), codec.PackPrefix(unsigned), codec.PackPrefixList(credentials))
  }
}
