/** Datasets of this group in run order (a fan-out after the datasets whose keys it reads). */
import type { AnyDataset } from "../../src/crawl/Dataset.ts"

export const datasets: ReadonlyArray<AnyDataset> = []
