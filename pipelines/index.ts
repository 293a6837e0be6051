/**
 * The registry of datasets, in run order: a fan-out dataset comes after the datasets whose keys it
 * reads. Adding a dataset = a pipelines/<name>.ts + schemas/<name>.ts and one line in its group.
 * Order across groups: node (current_validators feeds validators) before primary_rest; evm
 * (token_transfers feeds evm_transactions and nft_tokens) is self-contained; metrics last.
 */
import type { AnyDataset } from "../src/crawl/Dataset.ts"
import { datasets as evm } from "./groups/evm.ts"
import { datasets as metrics } from "./groups/metrics.ts"
import { datasets as node } from "./groups/node.ts"
import { datasets as primaryRest } from "./groups/primary_rest.ts"
import { dataset as primary_blocks } from "./primary_blocks.ts"
import { dataset as staking_transactions } from "./staking_transactions.ts"

export const datasets: ReadonlyArray<AnyDataset> = [staking_transactions, primary_blocks, ...node, ...primaryRest, ...evm, ...metrics]

export const datasetNames = datasets.map((d) => d.name)

export const findDataset = (name: string): AnyDataset | undefined => datasets.find((d) => d.name === name)
