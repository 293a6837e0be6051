/**
 * native_balances — route 9, one slice per address of `job.nativeBalances` and day: a snapshot of
 * the balance at the latest block, priced in `job.currency`; a rerun the same day is a no-op.
 */
import { Schema } from "effect"
import type { DatasetDef } from "../src/crawl/Dataset.ts"
import { makeSlice } from "../src/crawl/Slice.ts"
import type { RestClient } from "../src/source/RestClient.ts"
import { decoder } from "../src/transform/Decode.ts"
import { uint256Values } from "../schemas/common.ts"
import { schema } from "../schemas/native_balances.ts"
import { Int, Money, Uint256, distinctContracts, lookupListing, opt, priceRow } from "./_evm.ts"
import { columnKey } from "./_shared/partitions.ts"

const Balance = Schema.Struct({
  nativeTokenBalance: Schema.Struct({
    name: Schema.String,
    symbol: Schema.String,
    decimals: Int,
    logoUri: opt(Schema.String),
    chainId: Schema.String,
    price: opt(Money),
    balance: Uint256,
    balanceValue: opt(Money)
  })
})

const decode = decoder(Balance)

export const dataset: DatasetDef<RestClient> = {
  name: "native_balances",
  description: "Native token balances of the job's addresses (chain-data route 9), one snapshot a day",
  schema,
  partitionBy: [
    columnKey("chain_id"),
    columnKey("snapshot_date", "DATE")
  ],
  key: ["address", "currency"],
  slices: (job, { runDate }) =>
    distinctContracts(job.nativeBalances).map((a) =>
      makeSlice("native_balances", { chain_id: a.chainId, address: a.address, currency: job.currency, snapshot_date: runDate })
    ),
  listing: lookupListing({
    key: (s) => String(s.params["address"]),
    path: (s) => `/v1/chains/${s.params["chain_id"]}/addresses/${s.params["address"]}/balances:getNative`,
    query: (s) => ({ currency: s.params["currency"] })
  }),
  toRow: (raw, slice) => {
    const b = decode(raw).nativeTokenBalance
    return {
      chain_id: slice.params["chain_id"],
      snapshot_date: slice.params["snapshot_date"],
      address: slice.params["address"],
      currency: slice.params["currency"],
      network_token_name: b.name,
      network_token_symbol: b.symbol,
      network_token_decimals: b.decimals,
      network_token_logo_uri: b.logoUri ?? null,
      ...uint256Values("balance", b.balance),
      ...priceRow("price", b.price),
      ...priceRow("balance_value", b.balanceValue)
    }
  }
}
