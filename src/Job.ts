/**
 * What one run crawls. The spine needs only networks and the primary blockchains; the job file
 * (issue: dataset catalogue) grows this with chains, address sets, contracts and thresholds.
 */
export type Network = "mainnet" | "fuji"

export interface Job {
  readonly networks: ReadonlyArray<Network>
  /** Route 12 blockchains, e.g. p-chain, x-chain, c-chain. */
  readonly primaryBlockchains: ReadonlyArray<string>
}

export const defaultJob: Job = {
  networks: ["mainnet", "fuji"],
  primaryBlockchains: ["p-chain", "x-chain", "c-chain"]
}
