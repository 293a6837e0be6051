import type { WorldOptions } from "../world.ts"

/** Placeholder until the EVM world lands: EVM chains, blocks, transactions, transfers, metrics. */
export class EvmWorld {
  constructor(readonly options: WorldOptions) {}
}
