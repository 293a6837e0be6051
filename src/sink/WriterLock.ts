/**
 * The writer lock as a service, so a run takes it from wherever the state lives: the lock file in
 * the output folder (OutputLock.ts, the embedded default) or PostgreSQL (state/PgWriterLock.ts).
 * Either way it is held for the enclosing scope and refused with SinkError "Locked" naming the
 * holder while another writer has the same output.
 */
import { Context, Effect, Layer } from "effect"
import type { Scope } from "effect"
import type { SinkError } from "../Errors.ts"
import { acquireOutputLock } from "./OutputLock.ts"

export class WriterLock extends Context.Tag("chainetl/WriterLock")<
  WriterLock,
  {
    readonly acquire: (outDir: string, runId: string) => Effect.Effect<void, SinkError, Scope.Scope>
  }
>() {
  /** `<out>/_state/writer.lock`. */
  static readonly file: Layer.Layer<WriterLock> = Layer.succeed(WriterLock, {
    acquire: (outDir, runId) => Effect.asVoid(acquireOutputLock(outDir, runId))
  })
}
