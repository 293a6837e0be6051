/**
 * aggregated_signatures — route 1 for each L1-related P-chain transaction in staking_transactions
 * that has not been asked about before (fan-out, runs again every run). A key the service does
 * not know (404) or will not sign (400) is rejected once and not asked again.
 */
import { Effect } from "effect"
import { RecordError } from "../src/crawl/Dataset.ts"
import { keyedListing } from "../src/crawl/KeyedListing.ts"
import { OutputReader } from "../src/crawl/OutputReader.ts"
import { makeSlice, type Slice } from "../src/crawl/Slice.ts"
import { SourceError } from "../src/Errors.ts"
import { RestClient } from "../src/source/RestClient.ts"
import { defineDataset } from "../src/transform/DefineDataset.ts"
import { table } from "../schemas/aggregated_signatures.ts"

/**
 * The L1 transactions whose effect is a warp message the P-chain validators sign (conversion,
 * registration, weight change, disable). IncreaseL1ValidatorBalanceTx is of the L1 family too but
 * emits no warp message, so asking would only earn a 400.
 */
export const SIGNED_TX_TYPES = ["ConvertSubnetToL1Tx", "RegisterL1ValidatorTx", "SetL1ValidatorWeightTx", "DisableL1ValidatorTx"] as const

/** A key the service refused to sign: becomes a reject carrying its key and the service's words. */
class Unsigned {
  readonly _tag = "Unsigned"
  constructor(
    readonly key: string,
    readonly status: number,
    readonly detail: string
  ) {}
}

/** L1 tx hashes of this network not yet signed nor rejected, after the cursor, in text order. */
const unsignedAfter = (slice: Slice, after: string | undefined, limit: number) =>
  Effect.gen(function* () {
    const reader = yield* OutputReader
    const rows = yield* reader.query(
      `SELECT DISTINCT tx_hash FROM staking_transactions
       WHERE network = $network AND tx_type IN (${SIGNED_TX_TYPES.map((t) => `'${t}'`).join(", ")}) AND tx_hash > $after
         AND tx_hash NOT IN (SELECT tx_hash FROM aggregated_signatures WHERE network = $network AND tx_hash IS NOT NULL)
         -- rejects of a lookup carry their key; other rejects (a malformed answer) are asked again
         AND tx_hash NOT IN (
           SELECT k FROM (SELECT json_extract_string(raw, '$.key') AS k FROM _rejects WHERE dataset = 'aggregated_signatures' AND slice = $slice) r
           WHERE k IS NOT NULL)
       ORDER BY tx_hash LIMIT ${limit}`,
      { network: slice.params["network"] ?? "", after: after ?? "", slice: slice.id },
      ["staking_transactions", "aggregated_signatures", "_rejects"]
    )
    return rows.map((r) => String(r["tx_hash"]))
  })

const signatureOf = (slice: Slice, txHash: string) =>
  Effect.gen(function* () {
    const client = yield* RestClient
    const body = yield* client.get("data", `/v1/signatureAggregator/${slice.params["network"]}/aggregateSignatures/${encodeURIComponent(txHash)}`)
    return [{ ...(typeof body === "object" && body !== null ? body : {}), txHash }]
  }).pipe(
    // a tx with no warp message is that key's problem, not the run's (a 404 the listing handles)
    Effect.catchIf(
      (e): e is SourceError => e instanceof SourceError && e.reason === "HttpStatus" && e.status === 400,
      (e) => Effect.succeed([new Unsigned(txHash, 400, e.detail)])
    )
  )

export const dataset = defineDataset(table, {
  name: "aggregated_signatures",
  description: "Aggregated signatures over the warp messages of L1-related P-chain transactions found in staking_transactions (chain-data route 1)",
  services: ["data"],
  readsOutputOf: ["staking_transactions"],
  partitionBy: ["network"],
  key: ["tx_hash"],
  slices: (job) => job.networks.map((network) => makeSlice("aggregated_signatures", { network })),
  listing: keyedListing<RestClient | OutputReader>({ nextKeys: unsignedAfter, fetch: signatureOf, batch: 50, concurrency: 4, excludesCommitted: true }),
  rerun: "always",
  check: (raw) => {
    if (raw instanceof Unsigned) throw new RecordError(`not signed: route 1 answered ${raw.status}: ${raw.detail}`)
  }
})
