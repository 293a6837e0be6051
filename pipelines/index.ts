/**
 * The registry of datasets, in run order: a fan-out dataset comes after the datasets whose keys it
 * reads. Adding a dataset = a pipelines/<name>.ts + schemas/<name>.ts and one line here.
 */
import type { AnyDataset } from "../src/crawl/Dataset.ts"
import { dataset as primary_blocks } from "./primary_blocks.ts"
import { dataset as staking_transactions } from "./staking_transactions.ts"

export const datasets: ReadonlyArray<AnyDataset> = [staking_transactions, primary_blocks]

export const datasetNames = datasets.map((d) => d.name)

export const findDataset = (name: string): AnyDataset | undefined => datasets.find((d) => d.name === name)
