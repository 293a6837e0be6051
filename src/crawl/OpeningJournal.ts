/**
 * One file saying "these new slices may get parts" for a group of a run's new slices of a dataset,
 * in place of each slice's own "running" checkpoint before its first part: `<runId>-<n>.opening`
 * beside the dataset's checkpoints, written (replaceFile) before any of them starts.
 *
 * - **Rules.** A slice named by a journal and without a checkpoint of its own reads as the running
 *   state the journal holds (nothing committed), exactly what its own "running" save would have
 *   left: a run that finds one after a kill walks the folders for its parts (Crawler.ts
 *   recovery). The slice's own checkpoint, once there, wins. The store that wrote a journal knows
 *   which of its slices have not begun: those read as new, and the first save of one, "running"
 *   with nothing committed, is already durable here and is not written again. At the end of the
 *   crawl `settle` drops every entry that has a checkpoint of its own or never began, and a
 *   journal with none left.
 * - **Memory.** Each journaled state of the datasets this process crawls or reads (a few hundred
 *   bytes a slice), read from disk once per dataset.
 * - **Failure modes.** A journal that cannot be written fails the run before any slice starts.
 *   One that cannot be read is the dataset's problem (CheckpointError "Corrupt" naming it): which
 *   slices may have parts is then unknown, so nothing is planned over them. A kill before
 *   `settle` leaves the journal to the next run, which settles it too once its slices have
 *   checkpoints of their own.
 */
import { readdirSync, readFileSync, rmSync } from "node:fs"
import * as path from "node:path"
import { CheckpointError } from "../Errors.ts"
import { replaceFile } from "../files/Durable.ts"
import type { CheckpointState } from "./Checkpoint.ts"

export const OPENING_SUFFIX = ".opening"

export interface OpeningJournal {
  /** Journals `states` (new slices of one dataset, all of one run) in a file of their own, before any of them starts. */
  readonly open: (dataset: string, states: ReadonlyArray<CheckpointState>) => Promise<void>
  /** The state a slice without its own checkpoint reads as: a journal's, or undefined (new). */
  readonly stateOf: (dataset: string, slice: string) => CheckpointState | undefined
  /** Whether `state` need not be written: it is the running state the journal holds of a slice not begun. */
  readonly holds: (state: CheckpointState) => boolean
  /** The journaled states of the dataset's slices that have no checkpoint of their own (`own`) and began. */
  readonly unsettled: (dataset: string, own: ReadonlySet<string>) => ReadonlyArray<CheckpointState>
  /** Drops what checkpoints of their own now say, and whatever never began; `own` lists a dataset's checkpoints. */
  readonly settle: (own: (dataset: string) => ReadonlySet<string>) => Promise<void>
}

/** Nothing committed yet: the state a new slice's first save writes. */
const untouched = (s: CheckpointState): boolean =>
  s.status === "running" && s.lastSeq === -1 && s.cursor === null && s.pagesCommitted === 0 && s.restarts === 0

export const makeOpeningJournal = (root: string): OpeningJournal => {
  /** Per dataset, per journal file, its states: what this process journaled or read. */
  const journals = new Map<string, Map<string, Map<string, CheckpointState>>>()
  /** Per dataset, the slices this process journaled that have not begun. */
  const waiting = new Map<string, Set<string>>()

  const read = (dataset: string): Map<string, Map<string, CheckpointState>> => {
    let known = journals.get(dataset)
    if (known !== undefined) return known
    known = new Map()
    const dir = path.join(root, dataset)
    const names = (() => {
      try {
        return readdirSync(dir).filter((f) => f.endsWith(OPENING_SUFFIX))
      } catch {
        return []
      }
    })()
    for (const name of names) {
      const file = path.join(dir, name)
      let states: Array<CheckpointState>
      try {
        states = JSON.parse(readFileSync(file, "utf8")) as Array<CheckpointState>
        if (!Array.isArray(states) || !states.every((s) => s?.dataset === dataset && typeof s.slice === "string")) throw new Error("not a list of this dataset's states")
      } catch (e) {
        // not a slice's checkpoint, so not its fix: deleting a journal removes no part
        throw new CheckpointError({
          reason: "Corrupt",
          slice: `${dataset} (opening journal)`,
          detail: `${file} is broken (${e instanceof Error ? e.message : String(e)}): it names new slices that may have parts and no checkpoint. Fix: restore it, or delete it and refetch the range its run covered (\`chainetl backfill --refetch\`)`
        })
      }
      known.set(name, new Map(states.map((s) => [s.slice, s])))
    }
    journals.set(dataset, known)
    return known
  }

  const began = (dataset: string, slice: string): boolean => !(waiting.get(dataset)?.has(slice) ?? false)

  return {
    open: async (dataset, states) => {
      if (states.length === 0) return
      const known = read(dataset)
      // a run opens its new slices a group at a time (OpenedSlices.ts): a file a group
      let n = known.size
      while (known.has(`${states[0]!.runId}-${n}${OPENING_SUFFIX}`)) n++
      const name = `${states[0]!.runId}-${n}${OPENING_SUFFIX}`
      await replaceFile(path.join(root, dataset, name), JSON.stringify(states))
      known.set(name, new Map(states.map((s) => [s.slice, s])))
      const slices = waiting.get(dataset) ?? new Set()
      for (const s of states) slices.add(s.slice)
      waiting.set(dataset, slices)
    },
    stateOf: (dataset, slice) => {
      if (!began(dataset, slice)) return undefined
      for (const journal of read(dataset).values()) {
        const state = journal.get(slice)
        if (state !== undefined) return state
      }
      return undefined
    },
    holds: (state) => {
      const slices = waiting.get(state.dataset)
      // whatever its first save, the slice has begun: anything but untouched is its own checkpoint from now on
      return slices !== undefined && slices.delete(state.slice) && untouched(state)
    },
    unsettled: (dataset, own) => {
      const states: CheckpointState[] = []
      const seen = new Set<string>()
      for (const journal of read(dataset).values()) {
        for (const [slice, state] of journal) {
          if (own.has(slice) || seen.has(slice) || !began(dataset, slice)) continue
          seen.add(slice)
          states.push(state)
        }
      }
      return states
    },
    settle: async (own) => {
      for (const [dataset, known] of journals) {
        const mine = own(dataset)
        for (const [name, journal] of known) {
          const left = [...journal.values()].filter((s) => !mine.has(s.slice) && began(dataset, s.slice))
          if (left.length === journal.size) continue
          const file = path.join(root, dataset, name)
          if (left.length === 0) {
            // a journal resurrected by a power cut only costs the walks it asks for
            rmSync(file, { force: true })
            known.delete(name)
          } else {
            await replaceFile(file, JSON.stringify(left))
            known.set(name, new Map(left.map((s) => [s.slice, s])))
          }
        }
        waiting.delete(dataset)
      }
    }
  }
}
