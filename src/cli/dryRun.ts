/**
 * `run --dry-run`: the slices a run would crawl and a lower bound of its requests, without a
 * single request (slices come from the job alone). Fan-outs and height ranges learn their keys
 * from the output and the service, so their bound is one request per slice.
 */
import type { AnyDataset } from "../crawl/Dataset.ts"
import type { Job } from "../Job.ts"
import { table } from "./table.ts"

export interface DryRunLine {
  readonly dataset: string
  readonly slices: number
  readonly atLeastRequests: number
}

export const plan = (datasets: ReadonlyArray<AnyDataset>, job: Job, asOf: number): ReadonlyArray<DryRunLine> => {
  const runDate = new Date(asOf * 1000).toISOString().slice(0, 10)
  return datasets.map((d) => {
    const slices = d.slices(job, { asOf, runDate }).length
    return { dataset: d.name, slices, atLeastRequests: slices }
  })
}

export const printPlan = (lines: ReadonlyArray<DryRunLine>, asOf: number): void => {
  console.log(table(["dataset", "slices", "requests (at least)"], lines.map((l) => [l.dataset, l.slices, l.atLeastRequests])))
  const total = lines.reduce((n, l) => n + l.atLeastRequests, 0)
  console.log(`\ndry run as of ${new Date(asOf * 1000).toISOString()}: ${lines.length} datasets, at least ${total} requests; nothing was fetched or written`)
}
