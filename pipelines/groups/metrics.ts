/** Datasets of this group in run order (a fan-out after the datasets whose keys it reads). */
import type { AnyDataset } from "../../src/crawl/Dataset.ts"
import { dataset as avg_tps } from "../avg_tps.ts"
import { dataset as chain_metrics } from "../chain_metrics.ts"
import { dataset as nft_holders } from "../nft_holders.ts"
import { dataset as token_holders } from "../token_holders.ts"

export const datasets: ReadonlyArray<AnyDataset> = [chain_metrics, avg_tps, token_holders, nft_holders]
