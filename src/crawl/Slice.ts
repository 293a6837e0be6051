/**
 * A slice is one listing: a dataset plus the parameters that select it (network, blockchain,
 * window…). Its id names its checkpoint and its part files, so it must be stable across runs,
 * safe in a file name, and distinct for distinct parameters.
 */
import { createHash } from "node:crypto"

export interface Slice {
  readonly dataset: string
  readonly id: string
  readonly params: Readonly<Record<string, string>>
  /**
   * Unix seconds (service time) after which the slice's data can no longer change, e.g. the end
   * of a metrics month plus a settling margin. A rerunning slice completed by a run whose as-of
   * was at or past this instant is final and skipped from then on.
   */
  readonly finalAfter?: number
  /**
   * Unix seconds a windowed listing starts from this run (not part of the id): the window's start,
   * or its last completion minus the lookback when it is topped up (see Windows.ts).
   */
  readonly fetchFrom?: number
}

const readable = (v: string): string =>
  v
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")

/** Canonical JSON of the params, keys sorted, so the id does not depend on declaration order. */
const canonical = (params: Readonly<Record<string, string>>): string =>
  JSON.stringify(Object.keys(params).sort().map((k) => [k, params[k]]))

/**
 * `<readable values>-<8 hex of sha256>`: readable for people listing output/, and the hash keeps
 * values that read the same after lowering and stripping (e.g. "C-Chain" / "c_chain") apart.
 */
export const makeSlice = (dataset: string, params: Readonly<Record<string, string>>, finalAfter?: number): Slice => {
  const digest = createHash("sha256").update(`${dataset}|${canonical(params)}`).digest("hex").slice(0, 8)
  const words = Object.keys(params)
    .sort()
    .map((k) => readable(params[k] ?? ""))
    .filter((w) => w.length > 0)
    .join("-")
    .slice(0, 60)
    .replace(/-+$/, "")
  return { dataset, id: words.length > 0 ? `${words}-${digest}` : digest, params, ...(finalAfter === undefined ? {} : { finalAfter }) }
}
