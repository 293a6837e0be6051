/**
 * chains — route 17, one slice per chain of `job.evmChains` and day: a daily snapshot of what the
 * service says about the chain; a rerun the same day is a no-op.
 */
import { Schema } from "effect"
import type { DatasetDef } from "../src/crawl/Dataset.ts"
import { makeSlice } from "../src/crawl/Slice.ts"
import type { RestClient } from "../src/source/RestClient.ts"
import { decoder } from "../src/transform/Decode.ts"
import { schema } from "../schemas/chains.ts"
import { NetworkToken, lookupListing, networkTokenRow, opt } from "./_evm.ts"
import { columnKey } from "./_shared/partitions.ts"

const Chain = Schema.Struct({
  chainId: Schema.String,
  status: Schema.String,
  chainName: Schema.String,
  description: opt(Schema.String),
  platformChainId: opt(Schema.String),
  subnetId: opt(Schema.String),
  vmId: opt(Schema.String),
  vmName: opt(Schema.String),
  explorerUrl: opt(Schema.String),
  rpcUrl: opt(Schema.String),
  wsUrl: opt(Schema.String),
  isTestnet: Schema.Boolean,
  utilityAddresses: opt(Schema.Struct({ multicall: opt(Schema.String) })),
  networkToken: NetworkToken,
  chainLogoUri: opt(Schema.String),
  private: opt(Schema.Boolean),
  enabledFeatures: opt(Schema.Array(Schema.String))
})

const decode = decoder(Chain)

export const dataset: DatasetDef<RestClient> = {
  name: "chains",
  description: "The job's EVM chains as the chain-data service describes them (route 17), one snapshot a day",
  schema,
  partitionBy: [columnKey("snapshot_date", "DATE")],
  key: ["chain_id"],
  slices: (job, { runDate }) => [...new Set(job.evmChains)].map((chain_id) => makeSlice("chains", { chain_id, snapshot_date: runDate })),
  listing: lookupListing({ key: (s) => String(s.params["chain_id"]), path: (s) => `/v1/chains/${s.params["chain_id"]}` }),
  toRow: (raw, slice) => {
    const c = decode(raw)
    return {
      snapshot_date: slice.params["snapshot_date"],
      chain_id: c.chainId,
      status: c.status,
      chain_name: c.chainName,
      description: c.description ?? null,
      platform_chain_id: c.platformChainId ?? null,
      subnet_id: c.subnetId ?? null,
      vm_id: c.vmId ?? null,
      vm_name: c.vmName ?? null,
      explorer_url: c.explorerUrl ?? null,
      rpc_url: c.rpcUrl ?? null,
      ws_url: c.wsUrl ?? null,
      is_testnet: c.isTestnet,
      multicall_address: c.utilityAddresses?.multicall ?? null,
      ...networkTokenRow(c.networkToken),
      chain_logo_uri: c.chainLogoUri ?? null,
      private: c.private ?? null,
      enabled_features: c.enabledFeatures ?? []
    }
  }
}
