/**
 * Datasets of this group in run order (a fan-out after the datasets whose keys it reads):
 * current_validators first (the primary REST group's validators reads its node ids), the other
 * snapshots, then node_x_blocks before node_transactions, and avm_utxos and node_transactions
 * before assets, which reads the asset ids of both. legacy_balances runs only when enabled.
 */
import type { AnyDataset } from "../../src/crawl/Dataset.ts"
import { dataset as assets } from "../assets.ts"
import { dataset as avm_utxos } from "../avm_utxos.ts"
import { dataset as blockchains } from "../blockchains.ts"
import { dataset as current_supply } from "../current_supply.ts"
import { dataset as current_validators } from "../current_validators.ts"
import { dataset as legacy_balances } from "../legacy_balances.ts"
import { dataset as node_p_blocks } from "../node_p_blocks.ts"
import { dataset as node_transactions } from "../node_transactions.ts"
import { dataset as node_x_blocks } from "../node_x_blocks.ts"
import { dataset as tx_fees } from "../tx_fees.ts"

export const datasets: ReadonlyArray<AnyDataset> = [
  current_validators,
  current_supply,
  tx_fees,
  blockchains,
  node_x_blocks,
  node_p_blocks,
  node_transactions,
  avm_utxos,
  assets,
  legacy_balances
]
