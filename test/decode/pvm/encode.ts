/**
 * A small P-chain tx encoder for the decoder's tests, written from avalanchego's Go layouts
 * (vms/platformvm/txs/*.go, vms/components/avax, vms/secp256k1fx, vms/platformvm/stakeable,
 * signer, warp/message): each builder writes one value's bytes and returns the JSON avalanchego
 * would give for it.
 */
import type { PTxTypeName } from "../../../src/decode/pvm/index.ts"
import { Wire, cb58, hex, hrpFor, sha256 } from "./wire.ts"

export { HRP, Wire, cb58, hrpFor, sha256 } from "./wire.ts"

const FX = cb58(Uint8Array.from({ length: 32 }, (_, i) => "secp256k1fx".charCodeAt(i) || 0))

const transferOutput = (w: Wire) => {
  w.u32(7)
  const amount = w.freshU64()
  const locktime = w.freshU64()
  const threshold = w.freshU32()
  return { addresses: w.list(2, () => w.address()), amount, locktime, threshold }
}

/** stakeable.LockOut (22) around a TransferOutput, or a bare TransferOutput. */
const output = (w: Wire, locked: boolean) => {
  if (!locked) return transferOutput(w)
  w.u32(22)
  const locktime = w.freshU64()
  return { locktime, output: transferOutput(w) }
}

/** Two outputs: a TransferOutput, then a LockOut. */
const transferableOutputs = (w: Wire) =>
  w.list(2, (i) => {
    const assetID = w.id()
    return { assetID, fxID: FX, output: output(w, i === 1) }
  })

const signatureIndices = (w: Wire) => w.list(2, () => w.freshU32())

const transferInput = (w: Wire) => {
  w.u32(5)
  const amount = w.freshU64()
  return { amount, signatureIndices: signatureIndices(w) }
}

/** Two inputs: a TransferInput, then a LockIn. */
const transferableInputs = (w: Wire) =>
  w.list(2, (i) => {
    const txID = w.id()
    const outputIndex = w.freshU32()
    const assetID = w.id()
    if (i === 0) return { txID, outputIndex, assetID, fxID: FX, input: transferInput(w) }
    w.u32(21)
    const locktime = w.freshU64()
    return { txID, outputIndex, assetID, fxID: FX, input: { locktime, input: transferInput(w) } }
  })

export const baseTx = (w: Wire, networkId: number) => {
  w.hrp = hrpFor(networkId)
  const networkID = w.u32(networkId)
  const blockchainID = w.id()
  const outputs = transferableOutputs(w)
  const inputs = transferableInputs(w)
  return { networkID, blockchainID, outputs, inputs, memo: w.byteSliceHex(5) }
}

const owners = (w: Wire) => {
  w.u32(11)
  const locktime = w.freshU64()
  const threshold = w.freshU32()
  return { addresses: w.list(3, () => w.address()), locktime, threshold }
}

const auth = (w: Wire) => {
  w.u32(10)
  return { signatureIndices: signatureIndices(w) }
}

const validator = (w: Wire) => {
  const nodeID = w.nodeId()
  const start = w.freshU64()
  const end = w.freshU64()
  return { nodeID, start, end, weight: w.freshU64() }
}

const pop = (w: Wire) => {
  const { publicKey, signature } = w.blsKeyAndSignature()
  return { publicKey: hex(publicKey), proofOfPossession: hex(signature) }
}

const popSigner = (w: Wire) => {
  w.u32(28)
  return pop(w)
}

const pChainOwner = (w: Wire) => {
  const threshold = w.freshU32()
  return { threshold, addresses: w.list(2, () => cb58(w.freshBytes(20))) }
}

/** Each tx type: its type id, then its fields in Go order; returns the node's unsignedTx JSON. */
export const TX_BUILDERS: { readonly [K in PTxTypeName]: (w: Wire, networkId: number) => object } = {
  AddValidatorTx: (w, n) => {
    w.u32(12)
    const b = baseTx(w, n)
    const v = validator(w)
    const stake = transferableOutputs(w)
    const rewardsOwner = owners(w)
    return { ...b, validator: v, stake, rewardsOwner, shares: w.freshU32() }
  },
  AddSubnetValidatorTx: (w, n) => {
    w.u32(13)
    const b = baseTx(w, n)
    const v = validator(w)
    const subnetID = w.id()
    return { ...b, validator: { ...v, subnetID }, subnetAuthorization: auth(w) }
  },
  AddDelegatorTx: (w, n) => {
    w.u32(14)
    const b = baseTx(w, n)
    const v = validator(w)
    const stake = transferableOutputs(w)
    return { ...b, validator: v, stake, rewardsOwner: owners(w) }
  },
  CreateChainTx: (w, n) => {
    w.u32(15)
    const b = baseTx(w, n)
    const subnetID = w.id()
    const name = "Test Chain 7"
    w.u16(name.length)
    w.raw(Buffer.from(name, "ascii"))
    const vmID = w.id()
    const fxIDs = w.list(2, () => w.id())
    w.u32(7)
    const genesisData = Buffer.from(w.freshBytes(7)).toString("base64")
    return { ...b, subnetID, chainName: name, vmID, fxIDs, genesisData, subnetAuthorization: auth(w) }
  },
  CreateSubnetTx: (w, n) => {
    w.u32(16)
    const b = baseTx(w, n)
    return { ...b, owner: owners(w) }
  },
  ImportTx: (w, n) => {
    w.u32(17)
    const b = baseTx(w, n)
    const sourceChain = w.id()
    return { ...b, sourceChain, importedInputs: transferableInputs(w) }
  },
  ExportTx: (w, n) => {
    w.u32(18)
    const b = baseTx(w, n)
    const destinationChain = w.id()
    return { ...b, destinationChain, exportedOutputs: transferableOutputs(w) }
  },
  AdvanceTimeTx: (w) => {
    w.u32(19)
    return { time: w.freshU64() }
  },
  RewardValidatorTx: (w) => {
    w.u32(20)
    return { txID: w.id() }
  },
  RemoveSubnetValidatorTx: (w, n) => {
    w.u32(23)
    const b = baseTx(w, n)
    const nodeID = w.nodeId()
    const subnetID = w.id()
    return { ...b, nodeID, subnetID, subnetAuthorization: auth(w) }
  },
  TransformSubnetTx: (w, n) => {
    w.u32(24)
    const b = baseTx(w, n)
    const subnetID = w.id()
    const assetID = w.id()
    const initialSupply = w.freshU64()
    const maximumSupply = w.freshU64()
    const minConsumptionRate = w.freshU64()
    const maxConsumptionRate = w.freshU64()
    const minValidatorStake = w.freshU64()
    const maxValidatorStake = w.freshU64()
    const minStakeDuration = w.freshU32()
    const maxStakeDuration = w.freshU32()
    const minDelegationFee = w.freshU32()
    const minDelegatorStake = w.freshU64()
    const maxValidatorWeightFactor = w.u8(0xfe)
    const uptimeRequirement = w.freshU32()
    return {
      ...b,
      subnetID,
      assetID,
      initialSupply,
      maximumSupply,
      minConsumptionRate,
      maxConsumptionRate,
      minValidatorStake,
      maxValidatorStake,
      minStakeDuration,
      maxStakeDuration,
      minDelegationFee,
      minDelegatorStake,
      maxValidatorWeightFactor,
      uptimeRequirement,
      subnetAuthorization: auth(w)
    }
  },
  AddPermissionlessValidatorTx: (w, n) => {
    w.u32(25)
    const b = baseTx(w, n)
    const v = validator(w)
    const subnetID = w.id()
    const signer = popSigner(w)
    const stake = transferableOutputs(w)
    const validationRewardsOwner = owners(w)
    const delegationRewardsOwner = owners(w)
    return { ...b, validator: v, subnetID, signer, stake, validationRewardsOwner, delegationRewardsOwner, shares: w.freshU32() }
  },
  AddPermissionlessDelegatorTx: (w, n) => {
    w.u32(26)
    const b = baseTx(w, n)
    const v = validator(w)
    const subnetID = w.id()
    const stake = transferableOutputs(w)
    return { ...b, validator: v, subnetID, stake, rewardsOwner: owners(w) }
  },
  TransferSubnetOwnershipTx: (w, n) => {
    w.u32(33)
    const b = baseTx(w, n)
    const subnetID = w.id()
    const subnetAuthorization = auth(w)
    return { ...b, subnetID, subnetAuthorization, newOwner: owners(w) }
  },
  BaseTx: (w, n) => {
    w.u32(34)
    return baseTx(w, n)
  },
  ConvertSubnetToL1Tx: (w, n) => {
    w.u32(35)
    const b = baseTx(w, n)
    const subnetID = w.id()
    const chainID = w.id()
    const address = w.byteSliceHex(20)
    const validators = w.list(2, () => {
      const nodeID = w.byteSliceHex(20)
      const weight = w.freshU64()
      const balance = w.freshU64()
      const signer = pop(w)
      const remainingBalanceOwner = pChainOwner(w)
      return { nodeID, weight, balance, signer, remainingBalanceOwner, deactivationOwner: pChainOwner(w) }
    })
    return { ...b, subnetID, chainID, address, validators, subnetAuthorization: auth(w) }
  },
  RegisterL1ValidatorTx: (w, n) => {
    w.u32(36)
    const b = baseTx(w, n)
    const balance = w.freshU64()
    const proofOfPossession = Array.from(w.blsSignature())
    return { ...b, balance, proofOfPossession, message: w.byteSliceHex(9) }
  },
  SetL1ValidatorWeightTx: (w, n) => {
    w.u32(37)
    const b = baseTx(w, n)
    return { ...b, message: w.byteSliceHex(11) }
  },
  IncreaseL1ValidatorBalanceTx: (w, n) => {
    w.u32(38)
    const b = baseTx(w, n)
    const validationID = w.id()
    return { ...b, validationID, balance: w.freshU64() }
  },
  DisableL1ValidatorTx: (w, n) => {
    w.u32(39)
    const b = baseTx(w, n)
    const validationID = w.id()
    return { ...b, validationID, disableAuthorization: auth(w) }
  },
  AddAutoRenewedValidatorTx: (w, n) => {
    w.u32(40)
    const b = baseTx(w, n)
    const nodeID = w.byteSliceHex(20)
    const signer = popSigner(w)
    const stake = transferableOutputs(w)
    const validationRewardsOwner = owners(w)
    const delegationRewardsOwner = owners(w)
    const validatorAuthority = owners(w)
    const delegationShares = w.freshU32()
    const autoCompoundRewardShares = w.freshU32()
    return {
      ...b,
      nodeID,
      signer,
      stake,
      validationRewardsOwner,
      delegationRewardsOwner,
      validatorAuthority,
      delegationShares,
      autoCompoundRewardShares,
      period: w.freshU64()
    }
  },
  SetAutoRenewedValidatorConfigTx: (w, n) => {
    w.u32(41)
    const b = baseTx(w, n)
    const txID = w.id()
    const a = auth(w)
    const autoCompoundRewardShares = w.freshU32()
    return { ...b, txID, auth: a, autoCompoundRewardShares, period: w.freshU64() }
  },
  RewardAutoRenewedValidatorTx: (w) => {
    w.u32(42)
    const txID = w.id()
    return { txID, timestamp: w.freshU64() }
  }
}

export const credentials = (w: Wire, signatureCounts: ReadonlyArray<number>) =>
  w.list(signatureCounts.length, (i) => {
    w.u32(9)
    return { signatures: w.list(signatureCounts[i] as number, () => hex(w.freshBytes(65))) }
  })

export interface BuiltTx {
  readonly type: PTxTypeName
  readonly id: string
  readonly unsignedTx: object
  readonly credentials: ReadonlyArray<{ signatures: string[] }>
  /** The tx as it sits in a block: no codec version. */
  readonly bytes: Uint8Array
}

/** One signed tx of `type`, with two credentials (one and two signatures). */
export const buildTx = (type: PTxTypeName, networkId = 1, signatureCounts: ReadonlyArray<number> = [1, 2]): BuiltTx => {
  const w = new Wire()
  const unsignedTx = TX_BUILDERS[type](w, networkId)
  const creds = credentials(w, signatureCounts)
  const bytes = w.bytes()
  return { type, id: cb58(sha256(Buffer.concat([Buffer.from([0, 0]), bytes]))), unsignedTx, credentials: creds, bytes }
}

/** A standalone signed tx: codec version 0, then the tx. */
export const withCodecVersion = (txBytes: Uint8Array): Uint8Array => new Uint8Array(Buffer.concat([Buffer.from([0, 0]), txBytes]))
