import type { WorldOptions } from "../world.ts"

/** Placeholder until the primary-network world lands: P/X/C blocks, staking, validators, UTXOs. */
export class PrimaryWorld {
  constructor(readonly options: WorldOptions) {}
}
