/**
 * validators: every validation of each node id known to this snapshot (route 7, all statuses),
 * in the fields of its status variant (the others null). Hive keys: network, snapshot_date (the
 * run's UTC day).
 */
import { col, defineTable } from "./columns.ts"

const rewards = (comment: string, path: string) =>
  col
    .struct(
      {
        validation_reward_amount: col.amount("Reward for validating (nAVAX)").from("validationRewardAmount"),
        delegation_reward_amount: col.amount("Delegation fees earned (nAVAX)").from("delegationRewardAmount"),
        reward_addresses: col.list(col.address("Address"), "Addresses the rewards go to").from("rewardAddresses?", { orElse: [] }),
        reward_tx_hash: col.hash("RewardValidatorTx that paid them").from("rewardTxHash?")
      },
      comment
    )
    .from(`${path}?`)

export const table = defineTable(
  "Validations of the nodes found in delegators and current_validators, from the chain-data service (route 7), one snapshot per run day",
  {
    network: col.str("Network of the listing: mainnet or fuji").fromSlice(),
    snapshot_date: col.date("UTC day of the run that listed the validations").fromSlice(),
    tx_hash: col.hash("Transaction that added the validator (cb58)").from("txHash"),
    node_id: col.str("Validator node id (NodeID-…)").from("nodeId"),
    subnet_id: col.hash("Subnet validated (the primary network is 11111111111111111111111111111111LpoYY)").from("subnetId"),
    amount_staked: col.amount("Validator's own stake (nAVAX)").from("amountStaked"),
    delegation_fee: col.str("Delegation fee in percent, exact text as sent, e.g. 2.0000").from("delegationFee?"),
    start_timestamp: col.ts("Validation start (UTC)").from("startTimestamp"),
    end_timestamp: col.ts("Validation end (UTC)").from("endTimestamp"),
    bls_public_key: col.str("BLS public key (permissionless validators)").from("blsCredentials?.publicKey?"),
    bls_proof_of_possession: col.str("BLS proof of possession (permissionless validators)").from("blsCredentials?.proofOfPossession?"),
    // a status the document does not list yet is still a validation: kept as sent
    validation_status: col.str("completed, active, pending or removed at snapshot time; unknown values kept as sent").from("validationStatus"),
    delegator_count: col.int32("Delegations to this validation (completed: all; active: those not over)").from("delegatorCount?"),
    amount_delegated: col.amount("Stake delegated to this validation (nAVAX), counted like delegator_count").from("amountDelegated?"),
    rewards: rewards("Rewards paid (completed validations)", "rewards"),
    potential_rewards: rewards("Rewards expected if the validation succeeds (active validations)", "potentialRewards"),
    stake_percentage: col.float64("Share of the total active stake in percent (active validations)").from("stakePercentage?"),
    uptime_performance: col.float64("Uptime in percent observed by the service (active validations)").from("uptimePerformance?"),
    avalanche_go_version: col.str("Node software version (active validations)").from("avalancheGoVersion?"),
    delegation_capacity: col.amount("Stake that can still be delegated (nAVAX, active validations)").from("delegationCapacity?"),
    validator_health: col
      .struct(
        {
          reachability_percent: col.float64("Percent of requests answered in the last polling").from("reachabilityPercent"),
          benched_p_chain_requests_percent: col.float64("Percent of P-chain requests benched").from("benchedPChainRequestsPercent"),
          benched_x_chain_requests_percent: col.float64("Percent of X-chain requests benched").from("benchedXChainRequestsPercent"),
          benched_c_chain_requests_percent: col.float64("Percent of C-chain requests benched").from("benchedCChainRequestsPercent")
        },
        "Health of the node at the last polling (active validations)"
      )
      .from("validatorHealth?"),
    geolocation: col
      .struct(
        {
          city: col.str("City").from("city"),
          country: col.str("Country").from("country"),
          country_code: col.str("Country code").from("countryCode"),
          latitude: col.float64("Latitude").from("latitude"),
          longitude: col.float64("Longitude").from("longitude")
        },
        "Where the node runs, when known (active validations)"
      )
      .from("geolocation?", { orNull: true }),
    remove_tx_hash: col.hash("Transaction that removed a permissioned subnet validator (removed validations)").from("removeTxHash?"),
    remove_timestamp: col.ts("When it was removed (UTC, removed validations)").from("removeTimestamp?")
  }
)
