import { describe, expect, it } from "vitest"
import { P_TX_TYPES, decodePTx, type PTxTypeName } from "../../../src/decode/pvm/index.ts"
import { buildTx, withCodecVersion } from "./encode.ts"

/**
 * The json keys each Go struct gives its unsignedTx, read from avalanchego @ 1cf1fc3d
 * (vms/platformvm/txs/<file>). Every tx with a BaseTx embeds txs.BaseTx untagged, which embeds
 * avax.BaseTx untagged (vms/components/avax/base_tx.go), so those five keys are flattened in;
 * txs.BaseTx's own SyntacticallyVerified is json:"-".
 */
const BASE = ["networkID", "blockchainID", "outputs", "inputs", "memo"]

const GO_KEYS: Readonly<Record<PTxTypeName, { readonly file: string; readonly keys: ReadonlyArray<string> }>> = {
  AddValidatorTx: { file: "add_validator_tx.go", keys: [...BASE, "validator", "stake", "rewardsOwner", "shares"] },
  AddSubnetValidatorTx: { file: "add_subnet_validator_tx.go", keys: [...BASE, "validator", "subnetAuthorization"] },
  AddDelegatorTx: { file: "add_delegator_tx.go", keys: [...BASE, "validator", "stake", "rewardsOwner"] },
  CreateChainTx: { file: "create_chain_tx.go", keys: [...BASE, "subnetID", "chainName", "vmID", "fxIDs", "genesisData", "subnetAuthorization"] },
  CreateSubnetTx: { file: "create_subnet_tx.go", keys: [...BASE, "owner"] },
  ImportTx: { file: "import_tx.go", keys: [...BASE, "sourceChain", "importedInputs"] },
  ExportTx: { file: "export_tx.go", keys: [...BASE, "destinationChain", "exportedOutputs"] },
  AdvanceTimeTx: { file: "advance_time_tx.go", keys: ["time"] },
  RewardValidatorTx: { file: "reward_validator_tx.go", keys: ["txID"] },
  RemoveSubnetValidatorTx: { file: "remove_subnet_validator_tx.go", keys: [...BASE, "nodeID", "subnetID", "subnetAuthorization"] },
  TransformSubnetTx: {
    file: "transform_subnet_tx.go",
    keys: [
      ...BASE,
      "subnetID",
      "assetID",
      "initialSupply",
      "maximumSupply",
      "minConsumptionRate",
      "maxConsumptionRate",
      "minValidatorStake",
      "maxValidatorStake",
      "minStakeDuration",
      "maxStakeDuration",
      "minDelegationFee",
      "minDelegatorStake",
      "maxValidatorWeightFactor",
      "uptimeRequirement",
      "subnetAuthorization"
    ]
  },
  AddPermissionlessValidatorTx: {
    file: "add_permissionless_validator_tx.go",
    keys: [...BASE, "validator", "subnetID", "signer", "stake", "validationRewardsOwner", "delegationRewardsOwner", "shares"]
  },
  AddPermissionlessDelegatorTx: { file: "add_permissionless_delegator_tx.go", keys: [...BASE, "validator", "subnetID", "stake", "rewardsOwner"] },
  TransferSubnetOwnershipTx: { file: "transfer_subnet_ownership_tx.go", keys: [...BASE, "subnetID", "subnetAuthorization", "newOwner"] },
  BaseTx: { file: "base_tx.go", keys: BASE },
  ConvertSubnetToL1Tx: { file: "convert_subnet_to_l1_tx.go", keys: [...BASE, "subnetID", "chainID", "address", "validators", "subnetAuthorization"] },
  RegisterL1ValidatorTx: { file: "register_l1_validator_tx.go", keys: [...BASE, "balance", "proofOfPossession", "message"] },
  SetL1ValidatorWeightTx: { file: "set_l1_validator_weight_tx.go", keys: [...BASE, "message"] },
  IncreaseL1ValidatorBalanceTx: { file: "increase_l1_validator_balance_tx.go", keys: [...BASE, "validationID", "balance"] },
  DisableL1ValidatorTx: { file: "disable_l1_validator_tx.go", keys: [...BASE, "validationID", "disableAuthorization"] },
  AddAutoRenewedValidatorTx: {
    file: "add_auto_renewed_validator_tx.go",
    keys: [
      ...BASE,
      "nodeID",
      "signer",
      "stake",
      "validationRewardsOwner",
      "delegationRewardsOwner",
      "validatorAuthority",
      "delegationShares",
      "autoCompoundRewardShares",
      "period"
    ]
  },
  SetAutoRenewedValidatorConfigTx: { file: "set_auto_renewed_validator_config_tx.go", keys: [...BASE, "txID", "auth", "autoCompoundRewardShares", "period"] },
  RewardAutoRenewedValidatorTx: { file: "reward_auto_renewed_validator_tx.go", keys: ["txID", "timestamp"] }
}

const sortedKeys = (v: unknown): string[] => Object.keys(v as object).sort()

describe("decoded json keys equal the Go structs' json tags", () => {
  for (const { name } of P_TX_TYPES) {
    const { file, keys } = GO_KEYS[name]
    it(`given a ${name}, when decoded, then unsignedTx has exactly the keys of vms/platformvm/txs/${file}, in declaration order`, () => {
      const tx = decodePTx(withCodecVersion(buildTx(name, 1).bytes))

      expect(Object.keys(tx.unsignedTx)).toEqual(keys)
    })
  }

  // Nested shapes, by where they sit: validator (txs/validator.go; subnet_validator.go embeds it
  // untagged and adds subnetID), TransferableOutput/Input (components/avax/transferables.go,
  // utxo_id.go, asset.go embedded untagged; fxID json-only), the secp256k1fx MarshalJSONs (sorted
  // map keys), stakeable locks (stakeable/stakeable_lock.go: the embedded interface is tagged),
  // signer.ProofOfPossession's MarshalJSON, warp/message.PChainOwner and ConvertSubnetToL1Validator.
  it("given txs holding every nested shape, when decoded, then each nested object has its Go keys", () => {
    const pv = decodePTx(withCodecVersion(buildTx("AddPermissionlessValidatorTx", 1).bytes))
    const sv = decodePTx(withCodecVersion(buildTx("AddSubnetValidatorTx", 1).bytes))
    const l1 = decodePTx(withCodecVersion(buildTx("ConvertSubnetToL1Tx", 1).bytes))
    if (pv.type !== "AddPermissionlessValidatorTx" || sv.type !== "AddSubnetValidatorTx" || l1.type !== "ConvertSubnetToL1Tx") throw new Error("wrong types")
    const u = pv.unsignedTx
    const [plainOut, lockedOut] = u.outputs
    const [plainIn, lockedIn] = u.inputs

    expect(sortedKeys(u.validator)).toEqual(["end", "nodeID", "start", "weight"])
    expect(sortedKeys(sv.unsignedTx.validator)).toEqual(["end", "nodeID", "start", "subnetID", "weight"])
    expect(sortedKeys(plainOut)).toEqual(["assetID", "fxID", "output"])
    expect(sortedKeys(plainOut?.output)).toEqual(["addresses", "amount", "locktime", "threshold"])
    expect(sortedKeys(lockedOut?.output)).toEqual(["locktime", "output"])
    expect(sortedKeys(plainIn)).toEqual(["assetID", "fxID", "input", "outputIndex", "txID"])
    expect(sortedKeys(plainIn?.input)).toEqual(["amount", "signatureIndices"])
    expect(sortedKeys(lockedIn?.input)).toEqual(["input", "locktime"])
    expect(sortedKeys(u.validationRewardsOwner)).toEqual(["addresses", "locktime", "threshold"])
    expect(sortedKeys(u.signer)).toEqual(["proofOfPossession", "publicKey"])
    expect(sortedKeys(sv.unsignedTx.subnetAuthorization)).toEqual(["signatureIndices"])
    expect(sortedKeys(pv.credentials[0])).toEqual(["signatures"])
    const v = l1.unsignedTx.validators[0]
    expect(sortedKeys(v)).toEqual(["balance", "deactivationOwner", "nodeID", "remainingBalanceOwner", "signer", "weight"])
    expect(sortedKeys(v?.remainingBalanceOwner)).toEqual(["addresses", "threshold"])
  })
})
