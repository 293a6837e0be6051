/**
 * validators: every validation of each node id known to this snapshot (route 7, all statuses),
 * in the fields of its status variant. Hive keys: network, snapshot_date (the run's UTC day).
 */
import { address, amount, defineSchema, float64, hash, int32, list, str, struct, ts } from "./common.ts"

const rewards = (name: string, comment: string) =>
  struct(
    name,
    [
      amount("validation_reward_amount", "Reward for validating (nAVAX)"),
      amount("delegation_reward_amount", "Delegation fees earned (nAVAX)"),
      list("reward_addresses", address("item", "Address"), "Addresses the rewards go to"),
      hash("reward_tx_hash", "RewardValidatorTx that paid them")
    ],
    comment
  )

export const schema = defineSchema(
  [
    hash("tx_hash", "Transaction that added the validator (cb58)", { nullable: false }),
    str("node_id", "Validator node id (NodeID-…)"),
    hash("subnet_id", "Subnet validated (the primary network is 11111111111111111111111111111111LpoYY)"),
    amount("amount_staked", "Validator's own stake (nAVAX)"),
    str("delegation_fee", "Delegation fee in percent, exact text as sent, e.g. 2.0000"),
    ts("start_timestamp", "Validation start (UTC)"),
    ts("end_timestamp", "Validation end (UTC)"),
    str("bls_public_key", "BLS public key (permissionless validators)"),
    str("bls_proof_of_possession", "BLS proof of possession (permissionless validators)"),
    str("validation_status", "completed, active, pending or removed at snapshot time; unknown values kept as sent"),
    int32("delegator_count", "Delegations to this validation (completed: all; active: those not over)"),
    amount("amount_delegated", "Stake delegated to this validation (nAVAX), counted like delegator_count"),
    rewards("rewards", "Rewards paid (completed validations)"),
    rewards("potential_rewards", "Rewards expected if the validation succeeds (active validations)"),
    float64("stake_percentage", "Share of the total active stake in percent (active validations)"),
    float64("uptime_performance", "Uptime in percent observed by the service (active validations)"),
    str("avalanche_go_version", "Node software version (active validations)"),
    amount("delegation_capacity", "Stake that can still be delegated (nAVAX, active validations)"),
    struct(
      "validator_health",
      [
        float64("reachability_percent", "Percent of requests answered in the last polling"),
        float64("benched_p_chain_requests_percent", "Percent of P-chain requests benched"),
        float64("benched_x_chain_requests_percent", "Percent of X-chain requests benched"),
        float64("benched_c_chain_requests_percent", "Percent of C-chain requests benched")
      ],
      "Health of the node at the last polling (active validations)"
    ),
    struct(
      "geolocation",
      [
        str("city", "City"),
        str("country", "Country"),
        str("country_code", "Country code"),
        float64("latitude", "Latitude"),
        float64("longitude", "Longitude")
      ],
      "Where the node runs, when known (active validations)"
    ),
    hash("remove_tx_hash", "Transaction that removed a permissioned subnet validator (removed validations)"),
    ts("remove_timestamp", "When it was removed (UTC, removed validations)")
  ],
  "Validations of the nodes found in delegators and current_validators, from the chain-data service (route 7), one snapshot per run day"
)
