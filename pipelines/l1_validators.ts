/**
 * l1_validators — route 13 with includeInactiveL1Validators=true, one snapshot per network and run
 * day. Weights and balances are JSON numbers that can pass 2^53, so they are read as exact
 * integers (the client may hand them over as bigint) and stored as DECIMAL(38,0).
 */
import { Schema } from "effect"
import type { DatasetDef } from "../src/crawl/Dataset.ts"
import { makeSlice } from "../src/crawl/Slice.ts"
import type { RestClient } from "../src/source/RestClient.ts"
import { DecimalString, IntegerLike, UnixSeconds, decoder } from "../src/transform/Decode.ts"
import { schema } from "../schemas/l1_validators.ts"
import { snapshotKeys } from "./_shared/partitions.ts"
import { restListing } from "../src/crawl/RestListing.ts"

const Owner = Schema.Struct({ addresses: Schema.Array(Schema.String), threshold: Schema.Number.pipe(Schema.int()) })

const L1Validator = Schema.Struct({
  validationId: Schema.String,
  validationIdHex: Schema.String,
  nodeId: Schema.String,
  subnetId: Schema.String,
  weight: IntegerLike,
  remainingBalance: IntegerLike,
  creationTimestamp: UnixSeconds,
  // inner fields are not documented: the two every BLS signer has are read when present
  blsCredentials: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  remainingBalanceOwner: Owner,
  deactivationOwner: Owner
})

const Paged = Schema.Struct({ item: L1Validator, page: Schema.Struct({ blockHeight: DecimalString }) })

const decode = decoder(Paged)

const text = (v: unknown): string | null => (typeof v === "string" ? v : null)
const json = (v: unknown): string => JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? x.toString() : x))
const ownerRow = (o: typeof Owner.Type) => ({ addresses: o.addresses, threshold: o.threshold })

export const dataset: DatasetDef<RestClient> = {
  name: "l1_validators",
  description: "L1 validators, active and inactive (chain-data route 13), one snapshot per network and run day",
  schema,
  partitionBy: snapshotKeys,
  key: ["validation_id"],
  slices: (job, { runDate }) => job.networks.map((network) => makeSlice("l1_validators", { network, snapshot_date: runDate })),
  listing: restListing({
    service: "data",
    path: (s) => `/v1/networks/${s.params["network"]}/l1Validators`,
    query: () => ({ includeInactiveL1Validators: true }),
    items: "validators",
    pageSize: 100,
    pageFields: ["blockHeight"]
  }),
  toRow: (raw, slice) => {
    const { item: v, page } = decode(raw)
    return {
      network: slice.params["network"],
      snapshot_date: slice.params["snapshot_date"],
      validation_id: v.validationId,
      validation_id_hex: v.validationIdHex,
      node_id: v.nodeId,
      subnet_id: v.subnetId,
      weight: v.weight,
      remaining_balance: v.remainingBalance,
      creation_timestamp: v.creationTimestamp,
      bls_public_key: text(v.blsCredentials["publicKey"]),
      bls_proof_of_possession: text(v.blsCredentials["proofOfPossession"]),
      bls_credentials: json(v.blsCredentials),
      remaining_balance_owner: ownerRow(v.remainingBalanceOwner),
      deactivation_owner: ownerRow(v.deactivationOwner),
      block_height: page.blockHeight
    }
  }
}
