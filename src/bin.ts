/**
 * Entry of the `chainetl` binary: runs the command tree and turns the outcome into an exit code:
 * 0 all done, 1 a slice or the run failed (others committed), 2 bad usage or configuration.
 */
import { ValidationError } from "@effect/cli"
import { NodeContext } from "@effect/platform-node"
import { Cause, Effect, Exit, Logger, LogLevel, Option } from "effect"
import { cli } from "./cli/Cli.ts"
import { ConfigError } from "./Errors.ts"
import { RunFailed } from "./cli/exitCode.ts"

const program = cli(process.argv).pipe(
  Effect.provide(NodeContext.layer),
  Logger.withMinimumLogLevel(process.env["CHAINETL_LOG_LEVEL"] === "debug" ? LogLevel.Debug : LogLevel.Info)
)

const exit = await Effect.runPromiseExit(program)
if (Exit.isSuccess(exit)) {
  process.exitCode = 0
} else {
  const failure = Cause.failureOption(exit.cause)
  if (Option.isSome(failure) && ValidationError.isValidationError(failure.value)) {
    // @effect/cli has printed the usage problem already
    process.exitCode = ValidationError.isHelpRequested(failure.value) ? 0 : 2
  } else if (Option.isSome(failure) && failure.value instanceof RunFailed) {
    console.error(`chainetl: ${failure.value.message}`)
    process.exitCode = 1
  } else if (Option.isSome(failure) && failure.value instanceof ConfigError) {
    console.error(`chainetl: ${failure.value.message}`)
    process.exitCode = 2
  } else if (Option.isSome(failure) && failure.value instanceof Error) {
    console.error(`chainetl: ${failure.value.message}`)
    process.exitCode = 1
  } else if (!Cause.isInterruptedOnly(exit.cause)) {
    console.error(`chainetl: ${Cause.pretty(exit.cause)}`)
    process.exitCode = 1
  }
}
