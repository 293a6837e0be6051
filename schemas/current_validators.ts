/**
 * current_validators: the validators of the primary network and of each job subnet now, from the
 * node's platform.getCurrentValidators, delegators nested. Hive keys: network, snapshot_date.
 * Fields present depend on the subnet: primary-network validators have tx_id, end_time, rewards
 * and delegators; L1 validators have validation_id, public_key, balance and their owners.
 */
import { address, amount, bool, defineSchema, float64, hash, int32, int64, list, str, struct, ts } from "./common.ts"

export const ownerStruct = (name: string, comment: string) =>
  struct(
    name,
    [
      int64("locktime", "Unix time before which the owner cannot spend (0: none)"),
      int32("threshold", "Signatures required"),
      list("addresses", address("item", "Address"), "Owner addresses (P-avax1…)")
    ],
    comment
  )

export const schema = defineSchema(
  [
    hash("subnet_id", "Subnet validated (the primary network is 11111111111111111111111111111111LpoYY)", { nullable: false }),
    str("node_id", "Validator node id (NodeID-…)", { nullable: false }),
    hash("tx_id", "Transaction that added the validator (primary network)"),
    hash("validation_id", "L1 validation id"),
    ts("start_time", "Validation start (UTC)"),
    ts("end_time", "Validation end (UTC; absent for L1 validators)"),
    amount("weight", "Stake (nAVAX, primary network) or weight (L1)"),
    amount("potential_reward", "Reward if the validation succeeds (nAVAX)"),
    amount("accrued_delegatee_reward", "Delegation fees accrued so far (nAVAX), when the node sends it"),
    str("delegation_fee", "Delegation fee in percent, exact text as sent, e.g. 2.0000"),
    float64("uptime", "Uptime in percent as this node observes it"),
    bool("connected", "Whether this node is connected to the validator"),
    str("signer_public_key", "BLS public key of the signer (permissionless validators)"),
    str("signer_proof_of_possession", "BLS proof of possession of the signer"),
    ownerStruct("validation_reward_owner", "Who receives the validation reward"),
    ownerStruct("delegation_reward_owner", "Who receives the delegation fees"),
    str("public_key", "L1 validator's compressed BLS public key"),
    ownerStruct("remaining_balance_owner", "L1: who receives the balance left when the validator leaves"),
    ownerStruct("deactivation_owner", "L1: who may deactivate the validator"),
    amount("min_nonce", "L1: lowest nonce the next weight change may use"),
    amount("balance", "L1: balance left for the continuous fee (nAVAX)"),
    int32("delegator_count", "Current delegations to the validator"),
    amount("delegator_weight", "Stake delegated to it now (nAVAX)"),
    list(
      "delegators",
      struct(
        "item",
        [
          hash("tx_id", "Transaction that added the delegation"),
          ts("start_time", "Delegation start (UTC)"),
          ts("end_time", "Delegation end (UTC)"),
          amount("weight", "Delegated stake (nAVAX)"),
          str("node_id", "Node delegated to"),
          ownerStruct("reward_owner", "Who receives the delegation reward"),
          amount("potential_reward", "Reward if the delegation succeeds (nAVAX)")
        ],
        "Delegation"
      ),
      "Current delegations (the node lists them when asked about one node id: one extra call per validator with delegations); empty when delegator_count is 0, null when the node did not list them"
    )
  ],
  "Current validators of the primary network and the job's subnets from the node's platform.getCurrentValidators, delegators nested, one snapshot per run day"
)
