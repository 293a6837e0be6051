/**
 * Each P-chain unsigned tx type: its fields read in the Go struct's field order
 * (vms/platformvm/txs/<name>.go, embedded structs inline) and returned under their json tags.
 */
import {
  BLS_SIGNATURE_BYTES,
  authorization,
  baseTx,
  idList,
  owner,
  pChainOwner,
  proofOfPossession,
  signer,
  transferableInputs,
  transferableOutputs,
  validator,
  type TxReader
} from "./components.ts"
import type { L1ValidatorJson, UnsignedTxByType } from "./shapes.ts"
import { base64, hex0x } from "./text.ts"
import type { PTxTypeName } from "./types.ts"

type Decoders = { readonly [K in PTxTypeName]: (c: TxReader) => UnsignedTxByType[K] }

// smallest L1 validator: empty node id, weight, balance, proof of possession, two owners with no addresses
const MIN_L1_VALIDATOR = 4 + 8 + 8 + 48 + BLS_SIGNATURE_BYTES + 2 * (4 + 4)

const l1Validators = (c: TxReader): L1ValidatorJson[] => {
  const n = c.r.count("validators", MIN_L1_VALIDATOR)
  const out = new Array<L1ValidatorJson>(n)
  for (let i = 0; i < n; i++) {
    const nodeID = hex0x(c.r.byteSlice("validator nodeID"))
    const weight = c.r.u64("validator weight")
    const balance = c.r.u64("validator balance")
    const signer = proofOfPossession(c)
    const remainingBalanceOwner = pChainOwner(c)
    out[i] = { nodeID, weight, balance, signer, remainingBalanceOwner, deactivationOwner: pChainOwner(c) }
  }
  return out
}

export const UNSIGNED_TX_DECODERS: Decoders = {
  AddValidatorTx: (c) => {
    const base = baseTx(c)
    const v = validator(c)
    const stake = transferableOutputs(c, "stake")
    const rewardsOwner = owner(c, "rewardsOwner")
    return { ...base, validator: v, stake, rewardsOwner, shares: c.r.u32("shares") }
  },
  AddSubnetValidatorTx: (c) => {
    const base = baseTx(c)
    const v = validator(c)
    const subnetID = c.r.recurringId("subnetID")
    return { ...base, validator: { ...v, subnetID }, subnetAuthorization: authorization(c, "subnetAuthorization") }
  },
  AddDelegatorTx: (c) => {
    const base = baseTx(c)
    const v = validator(c)
    const stake = transferableOutputs(c, "stake")
    return { ...base, validator: v, stake, rewardsOwner: owner(c, "rewardsOwner") }
  },
  CreateChainTx: (c) => {
    const base = baseTx(c)
    const subnetID = c.r.recurringId("subnetID")
    const chainName = c.r.string("chainName")
    const vmID = c.r.recurringId("vmID")
    const fxIDs = idList(c, "fxIDs")
    const genesisData = base64(c.r.byteSlice("genesisData"))
    return { ...base, subnetID, chainName, vmID, fxIDs, genesisData, subnetAuthorization: authorization(c, "subnetAuthorization") }
  },
  CreateSubnetTx: (c) => {
    const base = baseTx(c)
    return { ...base, owner: owner(c, "owner") }
  },
  ImportTx: (c) => {
    const base = baseTx(c)
    const sourceChain = c.r.recurringId("sourceChain")
    return { ...base, sourceChain, importedInputs: transferableInputs(c, "importedInputs") }
  },
  ExportTx: (c) => {
    const base = baseTx(c)
    const destinationChain = c.r.recurringId("destinationChain")
    return { ...base, destinationChain, exportedOutputs: transferableOutputs(c, "exportedOutputs") }
  },
  AdvanceTimeTx: (c) => ({ time: c.r.u64("time") }),
  RewardValidatorTx: (c) => ({ txID: c.r.id("txID") }),
  RemoveSubnetValidatorTx: (c) => {
    const base = baseTx(c)
    const nodeID = c.r.nodeId("nodeID")
    const subnetID = c.r.recurringId("subnetID")
    return { ...base, nodeID, subnetID, subnetAuthorization: authorization(c, "subnetAuthorization") }
  },
  TransformSubnetTx: (c) => {
    const base = baseTx(c)
    const subnetID = c.r.recurringId("subnetID")
    const assetID = c.r.recurringId("assetID")
    const initialSupply = c.r.u64("initialSupply")
    const maximumSupply = c.r.u64("maximumSupply")
    const minConsumptionRate = c.r.u64("minConsumptionRate")
    const maxConsumptionRate = c.r.u64("maxConsumptionRate")
    const minValidatorStake = c.r.u64("minValidatorStake")
    const maxValidatorStake = c.r.u64("maxValidatorStake")
    const minStakeDuration = c.r.u32("minStakeDuration")
    const maxStakeDuration = c.r.u32("maxStakeDuration")
    const minDelegationFee = c.r.u32("minDelegationFee")
    const minDelegatorStake = c.r.u64("minDelegatorStake")
    const maxValidatorWeightFactor = c.r.u8("maxValidatorWeightFactor")
    const uptimeRequirement = c.r.u32("uptimeRequirement")
    return {
      ...base,
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
      subnetAuthorization: authorization(c, "subnetAuthorization")
    }
  },
  AddPermissionlessValidatorTx: (c) => {
    const base = baseTx(c)
    const v = validator(c)
    const subnetID = c.r.recurringId("subnetID")
    const s = signer(c)
    const stake = transferableOutputs(c, "stake")
    const validationRewardsOwner = owner(c, "validationRewardsOwner")
    const delegationRewardsOwner = owner(c, "delegationRewardsOwner")
    return { ...base, validator: v, subnetID, signer: s, stake, validationRewardsOwner, delegationRewardsOwner, shares: c.r.u32("shares") }
  },
  AddPermissionlessDelegatorTx: (c) => {
    const base = baseTx(c)
    const v = validator(c)
    const subnetID = c.r.recurringId("subnetID")
    const stake = transferableOutputs(c, "stake")
    return { ...base, validator: v, subnetID, stake, rewardsOwner: owner(c, "rewardsOwner") }
  },
  TransferSubnetOwnershipTx: (c) => {
    const base = baseTx(c)
    const subnetID = c.r.recurringId("subnetID")
    const subnetAuthorization = authorization(c, "subnetAuthorization")
    return { ...base, subnetID, subnetAuthorization, newOwner: owner(c, "newOwner") }
  },
  BaseTx: (c) => baseTx(c),
  ConvertSubnetToL1Tx: (c) => {
    const base = baseTx(c)
    const subnetID = c.r.recurringId("subnetID")
    const chainID = c.r.recurringId("chainID")
    const address = hex0x(c.r.byteSlice("address"))
    const validators = l1Validators(c)
    return { ...base, subnetID, chainID, address, validators, subnetAuthorization: authorization(c, "subnetAuthorization") }
  },
  RegisterL1ValidatorTx: (c) => {
    const base = baseTx(c)
    const balance = c.r.u64("balance")
    const proofOfPossession = Array.from(c.r.fixed(BLS_SIGNATURE_BYTES, "proofOfPossession"))
    return { ...base, balance, proofOfPossession, message: hex0x(c.r.byteSlice("message")) }
  },
  SetL1ValidatorWeightTx: (c) => {
    const base = baseTx(c)
    return { ...base, message: hex0x(c.r.byteSlice("message")) }
  },
  IncreaseL1ValidatorBalanceTx: (c) => {
    const base = baseTx(c)
    const validationID = c.r.id("validationID")
    return { ...base, validationID, balance: c.r.u64("balance") }
  },
  DisableL1ValidatorTx: (c) => {
    const base = baseTx(c)
    const validationID = c.r.id("validationID")
    return { ...base, validationID, disableAuthorization: authorization(c, "disableAuthorization") }
  },
  AddAutoRenewedValidatorTx: (c) => {
    const base = baseTx(c)
    const nodeID = hex0x(c.r.byteSlice("nodeID"))
    const s = signer(c)
    const stake = transferableOutputs(c, "stake")
    const validationRewardsOwner = owner(c, "validationRewardsOwner")
    const delegationRewardsOwner = owner(c, "delegationRewardsOwner")
    const validatorAuthority = owner(c, "validatorAuthority")
    const delegationShares = c.r.u32("delegationShares")
    const autoCompoundRewardShares = c.r.u32("autoCompoundRewardShares")
    return {
      ...base,
      nodeID,
      signer: s,
      stake,
      validationRewardsOwner,
      delegationRewardsOwner,
      validatorAuthority,
      delegationShares,
      autoCompoundRewardShares,
      period: c.r.u64("period")
    }
  },
  SetAutoRenewedValidatorConfigTx: (c) => {
    const base = baseTx(c)
    const txID = c.r.id("txID")
    const auth = authorization(c, "auth")
    const autoCompoundRewardShares = c.r.u32("autoCompoundRewardShares")
    return { ...base, txID, auth, autoCompoundRewardShares, period: c.r.u64("period") }
  },
  RewardAutoRenewedValidatorTx: (c) => {
    const txID = c.r.id("txID")
    return { txID, timestamp: c.r.u64("timestamp") }
  }
}
