/**
 * `--metrics-file`: verify's figures in Prometheus's text exposition format (version 0.0.4), for
 * node_exporter's textfile collector: one HELP and one TYPE line per metric, then one sample per
 * dataset labelled `dataset="…"`. Counts are exact decimal text (a bigint of heights is printed
 * whole). Pure: the caller writes the text with replaceFile, so the collector never reads half a
 * file.
 */
import { CHECKS, type Finding } from "./Finding.ts"

/** One dataset's figures. */
export interface DatasetMetrics {
  readonly dataset: string
  /** Rows its view returns. */
  readonly rows: bigint
  /** Heights missing, plus records rejected and not written since. */
  readonly holes: bigint
  /** Seconds its data is behind this machine's clock; undefined when nothing finished. */
  readonly lagSeconds?: number
  /** When a run last finished all of its slices it crawled (Unix seconds). */
  readonly lastSuccess?: number
  readonly failedSlices: number
  /** Rows of `_rejects` for it. */
  readonly rejects: bigint
}

/** A label value as the format escapes it: backslash, double quote and line feed. */
export const labelValue = (v: string): string => v.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")

interface Family {
  readonly name: string
  readonly help: string
  readonly samples: ReadonlyArray<readonly [labels: Readonly<Record<string, string>>, value: string]>
}

const render = (f: Family): string => {
  if (f.samples.length === 0) return ""
  const lines = [`# HELP ${f.name} ${f.help}`, `# TYPE ${f.name} gauge`]
  for (const [labels, value] of f.samples) {
    const l = Object.entries(labels).map(([k, v]) => `${k}="${labelValue(v)}"`).join(",")
    lines.push(`${f.name}${l === "" ? "" : `{${l}}`} ${value}`)
  }
  return `${lines.join("\n")}\n`
}

export const metricsText = (datasets: ReadonlyArray<DatasetMetrics>, findings: ReadonlyArray<Finding>, now: number): string => {
  const per = <T>(pick: (d: DatasetMetrics) => T | undefined, show: (v: T) => string) =>
    datasets.flatMap((d) => {
      const v = pick(d)
      return v === undefined ? [] : [[{ dataset: d.dataset }, show(v)] as const]
    })
  const failures = datasets.flatMap((d) => CHECKS.map((check) => [{ dataset: d.dataset, check }, String(findings.filter((f) => f.dataset === d.dataset && f.check === check).length)] as const))
  const families: Family[] = [
    { name: "chainetl_verify_ok", help: "1 when every check of chainetl verify held for the dataset, else 0.", samples: per((d) => d, (d) => (findings.some((f) => f.dataset === d.dataset) ? "0" : "1")) },
    { name: "chainetl_verify_failures", help: "Failures chainetl verify found, per dataset and check.", samples: failures },
    { name: "chainetl_dataset_rows", help: "Rows the dataset's view returns.", samples: per((d) => d.rows, String) },
    { name: "chainetl_dataset_holes", help: "Heights missing from the dataset's chains plus records rejected and not written since.", samples: per((d) => d.holes, String) },
    { name: "chainetl_dataset_lag_seconds", help: "Seconds the dataset's complete data is behind this machine's clock.", samples: per((d) => d.lagSeconds, String) },
    { name: "chainetl_dataset_last_success_timestamp_seconds", help: "Unix time a run last finished every slice of the dataset it crawled.", samples: per((d) => d.lastSuccess, String) },
    { name: "chainetl_dataset_failed_slices", help: "Slices of the dataset whose checkpoint says failed.", samples: per((d) => d.failedSlices, String) },
    { name: "chainetl_dataset_rejects", help: "Rows of _rejects for the dataset (records that could not be mapped).", samples: per((d) => d.rejects, String) },
    { name: "chainetl_verify_timestamp_seconds", help: "Unix time chainetl verify wrote this file.", samples: [[{}, String(now)]] }
  ]
  return families.map(render).join("")
}
