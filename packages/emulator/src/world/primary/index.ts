/**
 * The primary-network world: one PrimaryNetwork per network (mainnet, fuji), built on first use
 * from the same options, so every route and JSON-RPC method reads the same deterministic data.
 */
import type { NetworkName } from "../constants.ts"
import { EvmWorld } from "../evm/index.ts"
import type { WorldOptions } from "../world.ts"
import { PrimaryNetwork } from "./network.ts"

export { PrimaryNetwork, type AddressSet, type UtxoQuery, type PxChain } from "./network.ts"
export type * from "./types.ts"

export class PrimaryWorld {
  private readonly networks = new Map<NetworkName, PrimaryNetwork>()
  private readonly anchor: number
  private readonly evm: EvmWorld

  /**
   * `evm` should be the world's own EvmWorld so the C-chain and the adopted L1 are the very
   * objects the EVM routes serve; without it an identical one is built from the same options.
   */
  constructor(
    readonly options: WorldOptions,
    evm?: EvmWorld
  ) {
    this.anchor = options.clock.now()
    this.evm = evm ?? new EvmWorld(options)
  }

  /** The network's world; "testnet" is fuji. */
  /** The networks built so far (a request never builds one just to translate its ids). */
  built(): PrimaryNetwork[] {
    return [...this.networks.values()]
  }

  network(name: NetworkName | "testnet"): PrimaryNetwork {
    const key: NetworkName = name === "testnet" ? "fuji" : name
    let net = this.networks.get(key)
    if (!net) {
      const l1 = this.evm.chains().find((c) => c.info.network === key && !c.info.isCChain)
      const clock = this.options.clock
      // the network is anchored at the world's creation time even if built later
      const anchored = { ...clock, now: () => clock.now(), advance: (s: number) => clock.advance(s), tokenTimeMs: () => clock.tokenTimeMs() }
      net = new PrimaryNetwork(
        this.options.seed,
        key,
        this.options.scale,
        anchored,
        this.evm.cChain(key),
        this.anchor,
        l1 && {
          subnetId: l1.info.subnetId,
          blockchainId: l1.info.blockchainId,
          chainName: l1.info.chainName,
          evmChainId: l1.info.evmChainId,
          genesisTime: l1.info.genesisTime
        }
      )
      this.networks.set(key, net)
    }
    return net
  }
}
