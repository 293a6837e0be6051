/**
 * The synthetic network: one deterministic world per (seed, scale), read by every route and
 * JSON-RPC method so that what one interface says agrees with the others.
 *
 * primary/ (P-, X-chain, C-chain as a primary-network chain, staking, validators, UTXOs) and
 * evm/ (EVM chains, transfers, contracts, NFTs, metrics) each export a class built from the same
 * WorldOptions; their data depends on the clock, so time moving reveals new blocks.
 */
import type { Clock } from "../http/contract.ts"
import { EvmWorld } from "./evm/index.ts"
import { PrimaryWorld } from "./primary/index.ts"

export interface WorldOptions {
  readonly seed: number
  /** 1 = small (npm start crawls it in seconds); larger multiplies rows, generated lazily. */
  readonly scale: number
  readonly clock: Clock
  /** Rule 6 of avm.getUTXOs: when on, the UTXO set changes between calls and pages overlap. */
  readonly utxoChurn: boolean
}

export class World {
  readonly primary: PrimaryWorld
  readonly evm: EvmWorld
  constructor(readonly options: WorldOptions) {
    this.evm = new EvmWorld(options)
    // one EVM world: the P-chain's C-chain and adopted L1 are the objects the EVM routes serve
    this.primary = new PrimaryWorld(options, this.evm)
  }
}
