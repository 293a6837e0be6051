/**
 * l1_validators — route 13 with includeInactiveL1Validators=true, one snapshot per network and run
 * day. Weights and balances are JSON numbers that can pass 2^53, so they are read as exact
 * integers (the client may hand them over as bigint) and stored as DECIMAL(38,0).
 */
import { Schema } from "effect"
import { makeSlice } from "../src/crawl/Slice.ts"
import { restListing } from "../src/crawl/RestListing.ts"
import { read } from "../src/transform/ColumnDecoder.ts"
import { defineDataset } from "../src/transform/DefineDataset.ts"
import { table } from "../schemas/l1_validators.ts"
import { jsonText } from "../schemas/wire.ts"

const text = (v: unknown): string | null => (typeof v === "string" ? v : null)

export const dataset = defineDataset(table, {
  name: "l1_validators",
  description: "L1 validators, active and inactive (chain-data route 13), one snapshot per network and run day",
  services: ["data"],
  partitionBy: ["network", "snapshot_date"],
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
  reads: { bls: read("item.blsCredentials", Schema.Record({ key: Schema.String, value: Schema.Unknown })) },
  compute: ({ wire }) => ({
    bls_public_key: text(wire.bls["publicKey"]),
    bls_proof_of_possession: text(wire.bls["proofOfPossession"]),
    bls_credentials: jsonText(wire.bls)
  })
})
