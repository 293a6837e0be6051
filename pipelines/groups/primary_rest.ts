/** Datasets of this group in run order (a fan-out after the datasets whose keys it reads). */
import type { AnyDataset } from "../../src/crawl/Dataset.ts"
import { dataset as aggregated_signatures } from "../aggregated_signatures.ts"
import { dataset as delegators } from "../delegators.ts"
import { dataset as l1_validators } from "../l1_validators.ts"
import { dataset as utxos } from "../utxos.ts"
import { dataset as validators } from "../validators.ts"

// validators reads delegators (and the node group's current_validators); aggregated_signatures
// reads staking_transactions, which runs before every group
export const datasets: ReadonlyArray<AnyDataset> = [delegators, validators, l1_validators, utxos, aggregated_signatures]
