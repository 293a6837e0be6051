/**
 * validators — route 7 for every node id this snapshot knows: those in delegators and, when the
 * node group wrote it, current_validators (same network and run day). One key is one node and
 * its fetch pages through the node's validations fully. Each validation keeps the fields of its
 * status variant; the others stay null.
 */
import { Effect } from "effect"
import { keyedListing } from "../src/crawl/KeyedListing.ts"
import { OutputReader } from "../src/crawl/OutputReader.ts"
import { makeSlice, type Slice } from "../src/crawl/Slice.ts"
import type { RestClient } from "../src/source/RestClient.ts"
import { defineDataset } from "../src/transform/DefineDataset.ts"
import { table } from "../schemas/validators.ts"
import { getAllPages } from "./_shared/restListings.ts"
import { datasets as nodeGroup } from "./groups/node.ts"

const PRIMARY_NETWORK_SUBNET = "11111111111111111111111111111111LpoYY"

/**
 * current_validators belongs to the node group and may not be registered (or may lack a column):
 * it contributes node ids only when it is there with node_id and network; its day and subnet
 * narrow the ids when it has those columns.
 */
const currentValidatorsSql = Effect.gen(function* () {
  if (!nodeGroup.some((d) => d.name === "current_validators")) return undefined
  const reader = yield* OutputReader
  const rows = yield* reader.query(
    "SELECT column_name FROM information_schema.columns WHERE table_name = 'current_validators'",
    {},
    ["current_validators"]
  )
  const columns = new Set(rows.map((r) => String(r["column_name"])))
  if (!columns.has("node_id") || !columns.has("network")) return undefined
  return [
    "SELECT node_id FROM current_validators WHERE network = $network",
    columns.has("snapshot_date") ? "AND snapshot_date = CAST($date AS DATE)" : "",
    columns.has("subnet_id") ? `AND subnet_id = '${PRIMARY_NETWORK_SUBNET}'` : ""
  ].join(" ")
})

/** Node ids of this snapshot after the cursor and not yet fetched, in text order. */
const nodeIdsAfter = (slice: Slice, after: string | undefined, limit: number) =>
  Effect.gen(function* () {
    const reader = yield* OutputReader
    const current = yield* currentValidatorsSql
    const sources = ["SELECT node_id FROM delegators WHERE network = $network AND snapshot_date = CAST($date AS DATE)", ...(current === undefined ? [] : [current])]
    const rows = yield* reader.query(
      `SELECT DISTINCT node_id FROM (${sources.join(" UNION ALL ")}) ids
       WHERE node_id IS NOT NULL AND node_id > $after
         AND node_id NOT IN (SELECT node_id FROM validators WHERE network = $network AND snapshot_date = CAST($date AS DATE) AND node_id IS NOT NULL)
       ORDER BY node_id LIMIT ${limit}`,
      { network: slice.params["network"] ?? "", date: slice.params["snapshot_date"] ?? "", after: after ?? "" },
      ["delegators", "validators", ...(current === undefined ? [] : ["current_validators"])]
    )
    return rows.map((r) => String(r["node_id"]))
  })

export const dataset = defineDataset(table, {
  name: "validators",
  description: "Validations of the nodes found in delegators and current_validators (chain-data route 7), one snapshot per network and run day",
  services: ["data"],
  readsOutputOf: ["current_validators", "delegators"],
  partitionBy: ["network", "snapshot_date"],
  key: ["tx_hash"],
  slices: (job, { runDate }) => job.networks.map((network) => makeSlice("validators", { network, snapshot_date: runDate })),
  listing: keyedListing<RestClient | OutputReader>({
    nextKeys: nodeIdsAfter,
    fetch: (slice, nodeId) =>
      getAllPages(`/v1/networks/${slice.params["network"]}/validators/${encodeURIComponent(nodeId)}`, { sortOrder: "asc" }, "validators", 100),
    batch: 25,
    concurrency: 4,
    excludesCommitted: true
  })
})
