/**
 * The node part of the job `npm start` runs against the emulator. The node serves one network
 * (the emulator's nodeNetwork) and node datasets crawl the job's first network, so that network
 * goes first when it is not mainnet. Picked from the world so every node dataset has rows while
 * the run stays seconds long:
 * - an x-chain address set holding atomic UTXOs (avm_utxos' sourceChain slices; the primary
 *   part's x-chain sets give the chain's own UTXOs), concatenated with the other parts' sets,
 *   unless the primary part already lists that wallet;
 * - the last 200 heights of each chain in windows of 100 (a closed window and an open one);
 * - one L1 subnet (current_validators, current_supply beyond the primary network);
 * - legacy addresses of one wallet (legacy stays disabled: its test enables it).
 */
import type { RunningEmulator } from "@chainetl/emulator"
import type { Job, Network } from "../../../src/Job.ts"
import { primaryJobPart } from "./primary.ts"

const RECENT_HEIGHTS = 200n

const recent = (tip: bigint) => ({ from: String(tip >= RECENT_HEIGHTS ? tip - RECENT_HEIGHTS + 1n : 0n) })

export const nodeJobPart = (emu: RunningEmulator): Partial<Job> => {
  const network: Network = emu.options.nodeNetwork
  const net = emu.world.primary.network(network)
  const sets = net.addressSets()
  const atomic = sets.find((s) => (["P", "C"] as const).some((c) => net.utxos("X", s.addresses, { view: "node", sourceChain: c }).length > 0))
  const wallet = sets.find((s) => net.utxos("X", s.addresses, { view: "node" }).length > 0) ?? sets[0]
  const subnet = net.l1View.subnets()[0]?.subnetId
  const listed = (primaryJobPart(emu).addressSets ?? []).some(
    (s) => s.network === network && s.blockchain === "x-chain" && atomic !== undefined && s.addresses.join() === atomic.x.join()
  )
  return {
    ...(network === "mainnet" ? {} : { networks: [network, ...(["mainnet", "fuji"] as const).filter((n) => n !== network)] }),
    addressSets:
      atomic === undefined || listed ? [] : [{ name: `${network}-x-atomic-wallet-${atomic.wallet}`, network, blockchain: "x-chain" as const, addresses: atomic.x }],
    nodeHeightWindow: "100",
    nodeXHeights: recent(net.height("X")),
    nodePHeights: recent(net.height("P")),
    subnets: subnet === undefined ? [] : [subnet],
    legacy: {
      enabled: false,
      addresses: wallet === undefined ? [] : [{ network, address: wallet.x[0] ?? "" }, { network, address: wallet.p[0] ?? "" }].filter((a) => a.address !== "")
    }
  }
}
