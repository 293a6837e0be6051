/**
 * The primary-network part of the job `npm start` runs against the emulator: per network, one
 * P-chain and one X-chain address set (a wallet's addresses) that hold UTXOs now, so utxos has
 * something to list while the run stays a few seconds long.
 */
import type { RunningEmulator } from "@chainetl/emulator"
import type { Job, Network } from "../../../src/Job.ts"

const NETWORKS: ReadonlyArray<Network> = ["mainnet", "fuji"]

/**
 * The windowed datasets' nightly range starts at the world's first block (its history is 400
 * days, not mainnet's years), in 90-day windows: the world holds a few hundred blocks, so day
 * windows would be hundreds of near-empty requests.
 */
export const emulatorIncremental = (emu: RunningEmulator): Job["incremental"] => {
  const first = Math.min(
    ...NETWORKS.flatMap((network) => {
      const net = emu.world.primary.network(network)
      return [net.block("P", 0n)?.timestamp, net.block("X", 0n)?.timestamp, net.cBlock(0n)?.timestamp].filter((t): t is number => t !== undefined)
    })
  )
  const since = new Date(first * 1000).toISOString().slice(0, 10)
  return { primary_blocks: { window: "90d", since }, staking_transactions: { window: "90d", since } }
}

export const primaryJobPart = (emu: RunningEmulator): Partial<Job> => ({
  incremental: emulatorIncremental(emu),
  addressSets: NETWORKS.flatMap((network) => {
    const net = emu.world.primary.network(network)
    const sets = net.addressSets()
    return (["P", "X"] as const).flatMap((chain) => {
      // the first wallet with unspent UTXOs on that chain at the emulator's now
      const set = sets.find((s) => net.utxos(chain, s.addresses, { view: "rest" }).length > 0)
      if (set === undefined) return []
      return [
        {
          name: `${network}-${chain.toLowerCase()}-wallet-${set.wallet}`,
          network,
          blockchain: chain === "P" ? ("p-chain" as const) : ("x-chain" as const),
          addresses: chain === "P" ? set.p : set.x
        }
      ]
    })
  })
})
