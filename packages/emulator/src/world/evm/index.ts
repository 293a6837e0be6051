/**
 * The EVM side of the world: C-chain mainnet (43114) and fuji (43113) plus one invented L1 on each
 * network, generated lazily from the seed (no per-block storage; see layout.ts, tokens.ts).
 */
import type { WorldOptions } from "../world.ts"
import { EvmChain } from "./chain.ts"
import { ChainModel } from "./model.ts"
import { chainSpecs } from "./spec.ts"

export { EvmChain, type TokenTransferRange } from "./chain.ts"
export type * from "./types.ts"
export type { NftHolders } from "./holdings.ts"
export { METRICS, dayOnly, intervalsOf, isMetric, type MetricName } from "./metrics/catalog.ts"
export { TIME_INTERVALS, alignDown, nextStart, type TimeInterval } from "./metrics/calendar.ts"
export { metricPoints, seriesRange, type MetricPoint, type SeriesRange } from "./metrics/series.ts"
export type { MetricValue } from "./metrics/chainMetrics.ts"

/** Network groups route 5 accepts in place of a chain id. */
export type ChainGroup = "total" | "mainnet" | "testnet"

export class EvmWorld {
  private readonly list: ReadonlyArray<EvmChain>

  constructor(readonly options: WorldOptions) {
    const anchor = options.clock.now()
    this.list = chainSpecs(options.seed).map((spec) => new EvmChain(new ChainModel(options.seed, spec, options.scale, anchor), options.clock))
  }

  chains(): ReadonlyArray<EvmChain> {
    return this.list
  }

  /** By EVM chain id ("43114") or blockchain id (cb58); undefined when unknown. */
  chain(id: string): EvmChain | undefined {
    return this.list.find((c) => c.info.evmChainId === id || c.info.blockchainId === id)
  }

  /** The C-chain of a network. */
  cChain(network: "mainnet" | "fuji"): EvmChain {
    return this.list.find((c) => c.info.isCChain && c.info.network === network) as EvmChain
  }

  /** Chains of a group: all, mainnet ones, or fuji (testnet) ones. */
  group(name: ChainGroup): ReadonlyArray<EvmChain> {
    return name === "total" ? this.list : this.list.filter((c) => c.info.isTestnet === (name === "testnet"))
  }
}
