/**
 * Datasets of this group in run order (a fan-out after the datasets whose keys it reads):
 * token_transfers feeds evm_transactions (and its transfer tables), which feed nft_tokens.
 */
import type { AnyDataset } from "../../src/crawl/Dataset.ts"
import { dataset as chains } from "../chains.ts"
import { dataset as contract_metadata } from "../contract_metadata.ts"
import { dataset as evm_blocks } from "../evm_blocks.ts"
import { dataset as evm_transactions } from "../evm_transactions.ts"
import { dataset as native_balances } from "../native_balances.ts"
import { dataset as nft_tokens } from "../nft_tokens.ts"
import { dataset as token_transfers } from "../token_transfers.ts"

export const datasets: ReadonlyArray<AnyDataset> = [
  chains,
  evm_blocks,
  native_balances,
  contract_metadata,
  token_transfers,
  evm_transactions,
  nft_tokens
]
