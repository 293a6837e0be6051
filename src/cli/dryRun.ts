/**
 * `--dry-run`: the slices a run would crawl and a lower bound of its requests, without a single
 * request. Slices come from the job and the checkpoints on disk (windows already final are not
 * planned). Fan-outs and height ranges learn their keys from the output and the service, so
 * their bound is one request per slice.
 */
import type { AnyDataset } from "../crawl/Dataset.ts"
import type { Slice } from "../crawl/Slice.ts"
import { table } from "./table.ts"

export interface DryRunLine {
  readonly dataset: string
  readonly slices: number
  readonly atLeastRequests: number
}

export const plan = (planned: ReadonlyArray<{ readonly dataset: AnyDataset; readonly slices: ReadonlyArray<Slice> }>): ReadonlyArray<DryRunLine> =>
  planned.map(({ dataset, slices }) => ({ dataset: dataset.name, slices: slices.length, atLeastRequests: slices.length }))

export const printPlan = (lines: ReadonlyArray<DryRunLine>, asOf: number): void => {
  console.log(table(["dataset", "slices", "requests (at least)"], lines.map((l) => [l.dataset, l.slices, l.atLeastRequests])))
  const total = lines.reduce((n, l) => n + l.atLeastRequests, 0)
  console.log(`\ndry run as of ${new Date(asOf * 1000).toISOString()}: ${lines.length} datasets, at least ${total} requests; nothing was fetched or written`)
}
