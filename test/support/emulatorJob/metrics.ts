/**
 * The metrics group's part of a job against a running emulator: entries the emulator's world
 * actually has, so chain_metrics, avg_tps, token_holders and nft_holders all come out non-empty,
 * and a metrics window short enough that a run takes seconds. evmChains is left to the job's
 * default (the two C-Chains), which both the emulator and the other groups use.
 */
import type { RunningEmulator } from "@chainetl/emulator"
import type { Job } from "../../../src/Job.ts"

/** Two weeks of metrics: one or two months of slices per series. */
export const METRICS_WINDOW_SECONDS = 14 * 86_400

export const metricsJobPart = (emu: RunningEmulator): Partial<Job> => {
  const now = emu.clock.now()
  const tokenHolders: Array<Job["tokenHolders"][number]> = []
  const nftContracts: Array<Job["nftContracts"][number]> = []
  for (const chainId of ["43114", "43113"]) {
    const chain = emu.world.evm.chain(chainId)
    if (chain === undefined) continue
    for (const token of chain.tokens()) {
      if (token.ercType === "ERC-20") {
        // the median of today's non-zero balances: fewer holders than threshold 0, never none
        const amounts = (chain.holdersAbove(token.address, 0n, 0, now) ?? []).map((h) => h.amount).filter((a) => a > 0n)
        const median = amounts[Math.floor(amounts.length / 2)]
        if (median !== undefined) tokenHolders.push({ chainId, address: token.address, threshold: median.toString() })
      } else {
        nftContracts.push({ chainId, address: token.address })
      }
    }
  }
  return {
    tokenHolders,
    nftContracts,
    metrics: { startTimestamp: now - METRICS_WINDOW_SECONDS, endTimestamp: now }
  }
}
