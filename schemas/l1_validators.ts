/**
 * l1_validators: every L1 validator, inactive ones included (route 13), one snapshot per run day.
 * Hive keys: network, snapshot_date (the run's UTC day). The record is the listed validator
 * (`item`) and its page's blockHeight (`page`). Weights and balances are JSON numbers that can
 * pass 2^53: read as exact integers (the client may hand them over as bigint).
 */
import { IntegerLike } from "../src/transform/Decode.ts"
import { col, defineTable } from "./columns.ts"

const owner = (comment: string, path: string) =>
  col
    .struct(
      {
        addresses: col.list(col.address("Address"), "Owner addresses").from("addresses"),
        threshold: col.int32("Signatures required").from("threshold")
      },
      comment
    )
    .from(path)

export const table = defineTable("L1 validators, active and inactive, from the chain-data service (route 13), one snapshot per run day", {
  network: col.str("Network of the listing: mainnet or fuji").fromSlice(),
  snapshot_date: col.date("UTC day of the run that listed the validators").fromSlice(),
  validation_id: col.hash("L1 validation id (cb58)").from("item.validationId"),
  validation_id_hex: col.str("L1 validation id (0x hex)").from("item.validationIdHex"),
  node_id: col.str("Validator node id (NodeID-…)").from("item.nodeId"),
  subnet_id: col.hash("Subnet id of the L1").from("item.subnetId"),
  weight: col.amount("Sampling weight; 0 means removed").from("item.weight", { wire: IntegerLike }),
  remaining_balance: col.amount("Balance left for the continuous fee (nAVAX) at block_height").from("item.remainingBalance", { wire: IntegerLike }),
  creation_timestamp: col.ts("Timestamp of the transaction that created the validator (UTC)").from("item.creationTimestamp"),
  // the blsCredentials object's inner fields are not documented: the two every BLS signer has are
  // read when they are text, and the whole object is kept as JSON text
  bls_public_key: col.str("BLS public key").nullable(),
  bls_proof_of_possession: col.str("BLS proof of possession").nullable(),
  bls_credentials: col.str("The blsCredentials object as JSON text (its inner fields are not documented)"),
  remaining_balance_owner: owner("Who receives the remaining balance once disabled or removed", "item.remainingBalanceOwner"),
  deactivation_owner: owner("Who may disable or remove the validator", "item.deactivationOwner"),
  block_height: col.amount("P-chain height the listing computed remaining balances at").from("page.blockHeight")
})
