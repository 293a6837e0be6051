/**
 * l1_validators: every L1 validator, inactive ones included (route 13), one snapshot per run day.
 * Hive keys: network, snapshot_date (the run's UTC day).
 */
import { address, amount, defineSchema, hash, int32, list, str, struct, ts } from "./common.ts"

const owner = (name: string, comment: string) =>
  struct(
    name,
    [list("addresses", address("item", "Address"), "Owner addresses"), int32("threshold", "Signatures required")],
    comment
  )

export const schema = defineSchema(
  [
    hash("validation_id", "L1 validation id (cb58)", { nullable: false }),
    str("validation_id_hex", "L1 validation id (0x hex)"),
    str("node_id", "Validator node id (NodeID-…)"),
    hash("subnet_id", "Subnet id of the L1"),
    amount("weight", "Sampling weight; 0 means removed"),
    amount("remaining_balance", "Balance left for the continuous fee (nAVAX) at block_height"),
    ts("creation_timestamp", "Timestamp of the transaction that created the validator (UTC)"),
    str("bls_public_key", "BLS public key"),
    str("bls_proof_of_possession", "BLS proof of possession"),
    str("bls_credentials", "The blsCredentials object as JSON text (its inner fields are not documented)"),
    owner("remaining_balance_owner", "Who receives the remaining balance once disabled or removed"),
    owner("deactivation_owner", "Who may disable or remove the validator"),
    amount("block_height", "P-chain height the listing computed remaining balances at")
  ],
  "L1 validators, active and inactive, from the chain-data service (route 13), one snapshot per run day"
)
