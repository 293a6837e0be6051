/**
 * Which services each dataset calls, so a run asks only for the settings it needs (a run of
 * `delegators` alone needs CHAINETL_BASE_URL, not the metrics or node URL). Kept beside the CLI
 * rather than in the pipeline files so the check costs no import of the pipelines;
 * test/cli/services.test.ts holds it equal to the registry.
 */
import type { Service } from "../Config.ts"

export const servicesOf: Readonly<Record<string, ReadonlyArray<Service>>> = {
  staking_transactions: ["data"],
  primary_blocks: ["data"],
  current_validators: ["node"],
  current_supply: ["node"],
  tx_fees: ["node"],
  blockchains: ["node"],
  node_x_blocks: ["node"],
  node_p_blocks: ["node"],
  node_transactions: ["node"],
  avm_utxos: ["node"],
  assets: ["node"],
  legacy_balances: ["node"],
  delegators: ["data"],
  validators: ["data"],
  l1_validators: ["data"],
  utxos: ["data"],
  aggregated_signatures: ["data"],
  chains: ["data"],
  evm_blocks: ["data"],
  native_balances: ["data"],
  contract_metadata: ["data"],
  token_transfers: ["data"],
  evm_transactions: ["data"],
  nft_tokens: ["data"],
  chain_metrics: ["metrics"],
  avg_tps: ["metrics"],
  token_holders: ["metrics"],
  nft_holders: ["metrics"]
}

/** The services the named datasets call, in a stable order; all three for an unknown name. */
export const servicesFor = (names: ReadonlyArray<string>): ReadonlyArray<Service> => {
  const used = new Set<Service>()
  for (const n of names) for (const s of servicesOf[n] ?? ["data", "metrics", "node"]) used.add(s)
  return (["data", "metrics", "node"] as const).filter((s) => used.has(s))
}

/** Every registered dataset, in registry order (equal to pipelines/index.ts by test). */
export const datasetNames: ReadonlyArray<string> = Object.keys(servicesOf)

/** The datasets `chainetl backfill` takes (equal to backfillPlan's by test). */
export const BACKFILLABLE: ReadonlyArray<string> = ["staking_transactions", "primary_blocks", "node_x_blocks", "node_p_blocks", "chain_metrics"]
