/**
 * current_validators: the validators of the primary network and of each job subnet now, from the
 * node's platform.getCurrentValidators, delegators nested. Hive keys: network, snapshot_date.
 * Fields present depend on the subnet (avalanchego vms/platformvm/api/validator.go): a
 * PermissionlessValidator always writes txID, startTime, endTime, weight, nodeID and
 * delegationFee, the rest only when set (omitempty); an L1's APIL1Validator writes nodeID, weight
 * and startTime, and its validationID, publicKey, owners, minNonce and balance.
 */
import { col, defineTable } from "./columns.ts"
import { NodeCount, NodeInt, NodeTime, NodeUint, NumberText } from "./wire.ts"

/** api.Owner: every field always written. */
export const owner = (comment: string, path: string) =>
  col
    .struct(
      {
        locktime: col.int64("Unix time before which the owner cannot spend (0: none)").from("locktime", { wire: NodeUint }),
        threshold: col.int32("Signatures required").from("threshold", { wire: NodeInt }),
        addresses: col.list(col.address("Address"), "Owner addresses (P-avax1…)").from("addresses")
      },
      comment
    )
    .from(path)

export const table = defineTable(
  "Current validators of the primary network and the job's subnets from the node's platform.getCurrentValidators, delegators nested, one snapshot per run day",
  {
    network: col.str("Network of the node: mainnet or fuji").fromSlice(),
    snapshot_date: col.date("UTC day of the run that asked").fromSlice(),
    subnet_id: col.hash("Subnet validated (the primary network is 11111111111111111111111111111111LpoYY)").fromSlice(),
    node_id: col.str("Validator node id (NodeID-…)").from("nodeID"),
    tx_id: col.hash("Transaction that added the validator (primary network)").from("txID?"),
    validation_id: col.hash("L1 validation id").from("validationID?"),
    start_time: col.ts("Validation start (UTC)").from("startTime", { wire: NodeTime }),
    end_time: col.ts("Validation end (UTC; absent for L1 validators)").from("endTime?", { wire: NodeTime }),
    weight: col.amount("Stake (nAVAX, primary network) or weight (L1)").from("weight", { wire: NodeUint }),
    potential_reward: col.amount("Reward if the validation succeeds (nAVAX)").from("potentialReward?", { wire: NodeUint }),
    accrued_delegatee_reward: col.amount("Delegation fees accrued so far (nAVAX), when the node sends it").from("accruedDelegateeReward?", { wire: NodeUint }),
    delegation_fee: col.str("Delegation fee in percent, exact text as sent, e.g. 2.0000").from("delegationFee?"),
    uptime: col.float64("Uptime in percent as this node observes it").from("uptime?", { wire: NumberText }),
    connected: col.bool("Whether this node is connected to the validator").from("connected?"),
    signer_public_key: col.str("BLS public key of the signer (permissionless validators)").from("signer?.publicKey?"),
    // the node spells it proofOfPosession (sic); proofOfPossession accepted too
    signer_proof_of_possession: col.str("BLS proof of possession of the signer").from(["signer?.proofOfPosession?", "signer?.proofOfPossession?"]),
    validation_reward_owner: owner("Who receives the validation reward", "validationRewardOwner?"),
    delegation_reward_owner: owner("Who receives the delegation fees", "delegationRewardOwner?"),
    public_key: col.str("L1 validator's compressed BLS public key").from("publicKey?"),
    remaining_balance_owner: owner("L1: who receives the balance left when the validator leaves", "remainingBalanceOwner?"),
    deactivation_owner: owner("L1: who may deactivate the validator", "deactivationOwner?"),
    min_nonce: col.amount("L1: lowest nonce the next weight change may use").from("minNonce?", { wire: NodeUint }),
    balance: col.amount("L1: balance left for the continuous fee (nAVAX)").from("balance?", { wire: NodeUint }),
    delegator_count: col.int32("Current delegations to the validator").from("delegatorCount?", { wire: NodeCount }),
    delegator_weight: col.amount("Stake delegated to it now (nAVAX)").from("delegatorWeight?", { wire: NodeUint }),
    delegators: col
      .list(
        col.struct(
          {
            tx_id: col.hash("Transaction that added the delegation").from("txID"),
            start_time: col.ts("Delegation start (UTC)").from("startTime", { wire: NodeTime }),
            end_time: col.ts("Delegation end (UTC)").from("endTime", { wire: NodeTime }),
            weight: col.amount("Delegated stake (nAVAX)").from("weight", { wire: NodeUint }),
            node_id: col.str("Node delegated to").from("nodeID"),
            reward_owner: owner("Who receives the delegation reward", "rewardOwner?"),
            potential_reward: col.amount("Reward if the delegation succeeds (nAVAX)").from("potentialReward?", { wire: NodeUint })
          },
          "Delegation"
        ),
        "Current delegations (the node lists them when asked about one node id: one extra call per validator with delegations); empty when delegator_count is 0, null when the node did not list them"
      )
      .from("delegators?", { orNull: true })
  }
)
