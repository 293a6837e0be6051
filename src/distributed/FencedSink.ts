/**
 * The sink a worker crawls a slice through: the shared sink with every write under the slice's
 * fence (SliceFence.ts). Parts check it before each rename and bound their uploads by it (inside
 * the sink, where the renames are); recovery's deletions need a fresh confirmation first; a
 * take-back (its part's checkpoint failed) is skipped once the right is lost, since a file of the
 * same name may be the successor's by then, and the successor's recovery removes what this
 * worker left past its checkpoint.
 */
import { Effect } from "effect"
import type { ParquetSinkService } from "../sink/ParquetSink.ts"
import { type PartFence, QUICK_WRITE_MS, deadlineOf } from "../sink/PartFence.ts"

export const fencedSink = (sink: ParquetSinkService, fence: PartFence): ParquetSinkService => {
  const confirmed = deadlineOf(fence, QUICK_WRITE_MS)
  return {
    ...sink,
    writePart: (input) => sink.writePart({ ...input, fence }),
    takeBack: (parts) =>
      confirmed.pipe(
        Effect.matchEffect({
          onFailure: (e) => Effect.logWarning(`${e.message}: its ${parts.length} file(s) past the checkpoint stay for that holder's recovery`),
          onSuccess: () => sink.takeBack(parts)
        })
      ),
    removePartsAfter: (dataset, slice, lastCommittedSeq) => Effect.zipRight(confirmed, sink.removePartsAfter(dataset, slice, lastCommittedSeq)),
    removePartsBefore: (dataset, slice, firstKeptSeq) => Effect.zipRight(confirmed, sink.removePartsBefore(dataset, slice, firstKeptSeq))
  }
}
