/**
 * The primary-network part of the job `npm start` runs against the emulator: per network, one
 * P-chain and one X-chain address set (a wallet's addresses) that hold UTXOs now, so utxos has
 * something to list while the run stays a few seconds long.
 */
import type { RunningEmulator } from "../../../src/emulator/index.ts"
import type { Job, Network } from "../../../src/Job.ts"

const NETWORKS: ReadonlyArray<Network> = ["mainnet", "fuji"]

export const primaryJobPart = (emu: RunningEmulator): Partial<Job> => ({
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
