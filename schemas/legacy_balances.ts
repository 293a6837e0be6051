/**
 * legacy_balances: balances of the job's legacy addresses from the node's deprecated methods —
 * avm.getAllBalances, avm.getBalance (AVAX, with avm.getTxStatus of each counted UTXO's tx) and
 * platform.getBalance — one row per address and method. Hive keys: network, snapshot_date.
 */
import { amount, defineSchema, hash, int32, list, str, struct } from "./common.ts"

export const schema = defineSchema(
  [
    str("address", "Address asked about, with chain prefix (X-… or P-…)", { nullable: false }),
    str("method", "Node method that answered: avm.getAllBalances, avm.getBalance or platform.getBalance", { nullable: false }),
    list(
      "balances",
      struct(
        "item",
        [
          str("asset", "Asset id, or the node's alias (AVAX) as sent"),
          amount("balance", "Balance in the asset's smallest unit"),
          amount("unlocked", "platform.getBalance: spendable now"),
          amount("locked_stakeable", "platform.getBalance: locked, but may be staked"),
          amount("locked_not_stakeable", "platform.getBalance: locked and not stakeable")
        ],
        "Balance of one asset"
      ),
      "Balances per asset"
    ),
    list(
      "utxo_ids",
      struct(
        "item",
        [
          hash("tx_id", "Transaction that created the UTXO"),
          int32("output_index", "Its output index"),
          str("tx_status", "avm.getTxStatus of that transaction (avm.getBalance rows): Accepted, Processing, Rejected or Unknown, as sent")
        ],
        "UTXO counted"
      ),
      "UTXOs the balance counts (avm.getBalance, platform.getBalance)"
    )
  ],
  "Balances of the job's legacy addresses from the node's deprecated avm.getAllBalances, avm.getBalance (+ avm.getTxStatus) and platform.getBalance, one snapshot per run day"
)
