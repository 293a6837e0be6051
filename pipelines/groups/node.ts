/**
 * Datasets of this group in run order (a fan-out after the datasets whose keys it reads):
 * node_x_blocks before node_transactions, which reads its tx ids.
 */
import type { AnyDataset } from "../../src/crawl/Dataset.ts"
import { dataset as node_p_blocks } from "../node_p_blocks.ts"
import { dataset as node_transactions } from "../node_transactions.ts"
import { dataset as node_x_blocks } from "../node_x_blocks.ts"

export const datasets: ReadonlyArray<AnyDataset> = [node_x_blocks, node_p_blocks, node_transactions]
