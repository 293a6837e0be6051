/**
 * Signed-tx bytes in avalanchego's codec layout, built from the world's tx records with
 * avalanchejs' serializables, so a client (avalanchejs' AVMApi.getTx included) parses the hex the
 * node methods return. The world's own TxJson.txHex is a private layout no client can parse.
 *
 * What is not real: tx ids are the world's, not sha256 of these bytes; inputs and outputs keep the
 * world's order (the node would sort them) because output indices name UTXOs; BLS keys and proofs
 * are the world's pseudo-random bytes, written raw because avalanchejs refuses to build a
 * ProofOfPossession that does not verify. Signatures and L1 messages are taken from the world's
 * json encoding, so both encodings of a tx carry the same values.
 */
import { SUBNET_EVM_VM_ID } from "../world/primary/l1.ts"
import type { PrimaryNetwork } from "../world/primary/index.ts"
import type { Owners, TxRecord, UtxoRecord } from "../world/primary/types.ts"
import { sortAddresses } from "../world/primary/utxoCodec.ts"
import { lib, type Primitive, type Serializable } from "./avalanche.ts"

const { Id, Int, BigIntPr, Bytes, Address } = lib

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

const transferableOutput = (u: UtxoRecord): Serializable => {
  const transfer = new lib.TransferOutput(new BigIntPr(u.amount), outputOwners(u.owners))
  const out = u.stakeableLocktime > 0n ? new lib.pvmSerial.StakeableLockOut(new BigIntPr(u.stakeableLocktime), transfer) : transfer
  return new lib.TransferableOutput(Id.fromString(u.assetId), out)
}

const signatureIndices = (u: UtxoRecord): Primitive[] => Array.from({ length: u.owners.threshold }, (_, i) => new Int(i))

const transferableInput = (u: UtxoRecord): Serializable => {
  const transfer = new lib.TransferInput(new BigIntPr(u.amount), new lib.Input(signatureIndices(u)))
  const input = u.stakeableLocktime > 0n ? new lib.pvmSerial.StakeableLockIn(new BigIntPr(u.stakeableLocktime), transfer) : transfer
  return new lib.TransferableInput(lib.avaxSerial.UTXOID.fromNative(u.txId, u.outputIndex), Id.fromString(u.assetId), input)
}

const firstSignerAuth = (): Serializable => new lib.Input([new Int(0)])

type Json = Record<string, unknown>
const asObject = (v: unknown): Json => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Json) : {})
const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])

/** The world json's credentials as signature lists (X wraps them in {fxID, credential}). */
const signaturesOf = (json: Json): string[][] =>
  asArray(json.credentials).map((c) => {
    const cred = asObject(c)
    const sigs = "credential" in cred ? asObject(cred.credential).signatures : cred.signatures
    return asArray(sigs).map(String)
  })

export class TxBytes {
  constructor(private readonly net: PrimaryNetwork) {}

  private avaxBaseTx(tx: TxRecord, outputs: ReadonlyArray<UtxoRecord>): Serializable {
    return new lib.avaxSerial.BaseTx(
      new Int(this.net.networkId),
      Id.fromString(this.net.blockchainIds[tx.chain]),
      outputs.map(transferableOutput),
      tx.inputs.map(transferableInput),
      new Bytes(tx.memo)
    )
  }

  private xUnsigned(tx: TxRecord): Serializable {
    const { avmSerial } = lib
    const ids = this.net.blockchainIds
    if (tx.type === "CreateAssetTx" && tx.asset) {
      // the minted outputs are the asset's initial state; their UTXO indices follow the (empty) outputs
      const state = new avmSerial.InitialState(
        new Int(0),
        tx.outputs.map((u) => new lib.TransferOutput(new BigIntPr(u.amount), outputOwners(u.owners)))
      )
      const { name, symbol, denomination } = tx.asset
      return new avmSerial.CreateAssetTx(this.avaxBaseTx(tx, []), new lib.Stringpr(name), new lib.Stringpr(symbol), new lib.Byte(new Uint8Array([denomination])), [state])
    }
    if (tx.imported) return new avmSerial.ImportTx(this.avaxBaseTx(tx, tx.outputs), Id.fromString(ids[tx.imported.sourceChain]), tx.imported.utxos.map(transferableInput))
    if (tx.exported) return new avmSerial.ExportTx(this.avaxBaseTx(tx, tx.outputs), Id.fromString(ids[tx.exported.destinationChain]), tx.exported.utxos.map(transferableOutput))
    return new avmSerial.BaseTx(this.avaxBaseTx(tx, tx.outputs))
  }

  private stakingUnsigned(tx: TxRecord, base: Serializable): Serializable {
    const { pvmSerial } = lib
    const s = tx.staking
    if (!s) throw new Error(`${tx.type} ${tx.id} has no staking details`)
    const validator = new pvmSerial.Validator(lib.NodeId.fromString(s.nodeId), new BigIntPr(BigInt(s.start)), new BigIntPr(BigInt(s.end)), new BigIntPr(s.weight))
    const stake = (tx.stake ?? []).map(transferableOutput)
    const subnetValidator = (): Serializable => new pvmSerial.SubnetValidator(validator, Id.fromString(s.subnetId))
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

  private l1Unsigned(tx: TxRecord, base: Serializable, unsignedJson: Json): Serializable {
    const { pvmSerial } = lib
    const l1 = tx.l1
    if (!l1) throw new Error(`${tx.type} ${tx.id} has no L1 details`)
    const message = (): Primitive => new Bytes(hexBytes(String(unsignedJson.message ?? "0x")))
    switch (l1.kind) {
      case "createSubnet":
        return new pvmSerial.CreateSubnetTx(base, outputOwners(l1.owner))
      case "createChain":
        return new pvmSerial.CreateChainTx(
          base,
          Id.fromString(l1.subnetId),
          new lib.Stringpr(l1.chainName),
          Id.fromString(l1.vmId || SUBNET_EVM_VM_ID),
          [],
          new Bytes(Buffer.from(JSON.stringify(l1.genesis))),
          firstSignerAuth()
        )
      case "convert":
        return new pvmSerial.ConvertSubnetToL1Tx(
          base,
          Id.fromString(l1.subnetId),
          Id.fromString(l1.chainId),
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
        return new pvmSerial.IncreaseL1ValidatorBalanceTx(base, Id.fromString(l1.validationId), new BigIntPr(l1.amount))
      case "disable":
        return new pvmSerial.DisableL1ValidatorTx(base, Id.fromString(l1.validationId), firstSignerAuth())
    }
  }

  private pUnsigned(tx: TxRecord, unsignedJson: Json): Serializable {
    const { pvmSerial } = lib
    const ids = this.net.blockchainIds
    // avalanchejs registers RewardValidatorTx in its codec but does not export the class
    if (tx.type === "RewardValidatorTx") return raw("RewardValidatorTx", Id.fromString(tx.rewardedTxId ?? "").toBytes())
    const base = this.avaxBaseTx(tx, tx.outputs)
    if (tx.staking) return this.stakingUnsigned(tx, base)
    if (tx.l1) return this.l1Unsigned(tx, base, unsignedJson)
    if (tx.imported) return new pvmSerial.ImportTx(base, Id.fromString(ids[tx.imported.sourceChain]), tx.imported.utxos.map(transferableInput))
    if (tx.exported) return new pvmSerial.ExportTx(base, Id.fromString(ids[tx.exported.destinationChain]), tx.exported.utxos.map(transferableOutput))
    return new pvmSerial.BaseTx(base)
  }

  /**
   * Codec version + unsigned tx (with its type id) + credentials: the bytes the node hashes into a
   * tx id and hex-encodes. Packed here rather than by avalanchejs' SignedTx.toBytes, which cannot
   * tell the VM of a CreateAssetTx.
   */
  bytes(tx: TxRecord): Uint8Array {
    const json = asObject(this.net.json.tx(tx))
    const unsigned = tx.chain === "X" ? this.xUnsigned(tx) : this.pUnsigned(tx, asObject(json.unsignedTx))
    const credentials = signaturesOf(json).map((sigs) => new lib.Credential(sigs.map((s) => new lib.Signature(hexBytes(s)))))
    const manager = lib.utils.getManagerForVM(tx.chain === "X" ? "AVM" : "PVM")
    const codec = manager.getDefaultCodec()
    return lib.utils.concatBytes(new lib.Short(0).toBytes(), codec.PackPrefix(unsigned), codec.PackPrefixList(credentials))
  }
}
