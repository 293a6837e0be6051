/**
 * legacy_balances: balances of the job's legacy addresses from the node's deprecated methods —
 * avm.getAllBalances, avm.getBalance (AVAX, with avm.getTxStatus of each counted UTXO's tx) and
 * platform.getBalance — one row per address and method. Hive keys: network, snapshot_date. The
 * record is the address asked, the method and its answer; the three answers differ in shape, so
 * the balances are computed from whichever the method gave.
 */
import { col, defineTable, type ValueOf } from "./columns.ts"

export const balanceStruct = col.struct(
  {
    asset: col.str("Asset id, or the node's alias (AVAX) as sent"),
    balance: col.amount("Balance in the asset's smallest unit").nullable(),
    unlocked: col.amount("platform.getBalance: spendable now").nullable(),
    locked_stakeable: col.amount("platform.getBalance: locked, but may be staked").nullable(),
    locked_not_stakeable: col.amount("platform.getBalance: locked and not stakeable").nullable()
  },
  "Balance of one asset"
)

export type BalanceRow = ValueOf<typeof balanceStruct>

export const table = defineTable(
  "Balances of the job's legacy addresses from the node's deprecated avm.getAllBalances, avm.getBalance (+ avm.getTxStatus) and platform.getBalance, one snapshot per run day",
  {
    network: col.str("Network of the node: mainnet or fuji").fromSlice(),
    snapshot_date: col.date("UTC day of the run that asked").fromSlice(),
    address: col.str("Address asked about, with chain prefix (X-… or P-…)").from("address"),
    method: col.str("Node method that answered: avm.getAllBalances, avm.getBalance or platform.getBalance").from("method"),
    balances: col.list(balanceStruct, "Balances per asset"),
    utxo_ids: col.list(
      col.struct(
        {
          tx_id: col.hash("Transaction that created the UTXO"),
          output_index: col.int32("Its output index"),
          tx_status: col.str("avm.getTxStatus of that transaction (avm.getBalance rows): Accepted, Processing, Rejected or Unknown, as sent").nullable()
        },
        "UTXO counted"
      ),
      "UTXOs the balance counts (avm.getBalance, platform.getBalance)"
    )
  }
)
