/**
 * The `chainetl` program as a function of its arguments: runs the command tree and turns the
 * outcome into an exit code (0 all done, 1 a slice or the run failed, others committed, 2 bad
 * usage or configuration, 3 a run done but with records it could not map: exitCode.ts). Every failure is one line on stderr naming the cause, never a stack
 * trace (CHAINETL_LOG_LEVEL=debug adds the full cause).
 */
import { ValidationError } from "@effect/cli"
import * as NodeContext from "@effect/platform-node/NodeContext"
import { Cause, Console, Effect, Exit, Logger, LogLevel, Option } from "effect"
import { ConfigError } from "../Errors.ts"
import { checkArgv } from "./argv.ts"
import { cli } from "./Cli.ts"
import { colourAllowed, plain } from "./colour.ts"
import { EXIT_FAILED, EXIT_REJECTS, RunRejected } from "./exitCode.ts"

/**
 * @effect/cli prints its own errors (with ANSI codes, a blank line, no fix); they are held here and
 * replaced by one line of ours. Help and version text pass through, plain off a terminal.
 */
const cliConsole = (held: Array<string>) =>
  Effect.map(Console.consoleWith(Effect.succeed), (base): Console.Console => {
    const text = (args: ReadonlyArray<unknown>) => args.map(String).join(" ")
    const out = (args: ReadonlyArray<unknown>) => {
      const t = text(args)
      process.stdout.write(`${colourAllowed() ? t : plain(t)}\n`)
    }
    const hold = (args: ReadonlyArray<unknown>) => void held.push(plain(text(args)).trim())
    return {
      ...base,
      log: (...args) => Effect.sync(() => out(args)),
      error: (...args) => Effect.sync(() => hold(args)),
      unsafe: { ...base.unsafe, log: (...args) => out(args), error: (...args) => hold(args) }
    }
  })

/** "'abc' is not a integer" names no flag: the flag is the argument before the value. */
const flagOf = (message: string, argv: ReadonlyArray<string>): string | undefined => {
  const value = /^'(.*?)' is not/.exec(message)?.[1]
  if (value === undefined) return undefined
  const i = argv.indexOf(value)
  const before = i > 0 ? argv[i - 1] : undefined
  const inline = argv.find((a) => a.startsWith("--") && a.endsWith(`=${value}`))
  const flag = before?.startsWith("--") === true ? before : inline?.split("=")[0]
  return flag === undefined ? undefined : `${flag}: `
}

const say = (line: string) => process.stderr.write(`chainetl: ${line}\n`)

export const main = async (argv: ReadonlyArray<string>): Promise<number> => {
  const early = checkArgv(argv.slice(2))
  if (early !== undefined) {
    say(early.message)
    return 2
  }
  const held: Array<string> = []
  const debug = process.env["CHAINETL_LOG_LEVEL"] === "debug"
  const program = Effect.flatMap(cliConsole(held), (c) => Effect.withConsole(cli(argv), c)).pipe(
    Effect.provide(NodeContext.layer),
    Logger.withMinimumLogLevel(debug ? LogLevel.Debug : LogLevel.Info)
  )
  const exit = await Effect.runPromiseExit(program)
  if (Exit.isSuccess(exit)) return 0
  const failure = Cause.failureOption(exit.cause)
  if (Option.isSome(failure) && ValidationError.isValidationError(failure.value)) {
    if (ValidationError.isHelpRequested(failure.value)) return 0
    const command = argv[2] !== undefined && !argv[2].startsWith("-") ? ` ${argv[2]}` : ""
    const what = (held.filter((l) => l !== "").join(" ") || failure.value._tag).replace(/\s+/g, " ")
    say(`${flagOf(what, argv) ?? ""}${what}. Fix: see chainetl${command} --help`)
    return 2
  }
  if (Option.isSome(failure)) {
    const e = failure.value
    say(e instanceof Error ? e.message : String(e))
    if (debug) process.stderr.write(`${Cause.pretty(exit.cause)}\n`)
    return e instanceof ConfigError ? 2 : e instanceof RunRejected ? EXIT_REJECTS : EXIT_FAILED
  }
  if (Cause.isInterruptedOnly(exit.cause)) return 0
  // a defect: its message, not its stack (the stack is for us, with CHAINETL_LOG_LEVEL=debug)
  const defect = Cause.squash(exit.cause)
  say(`unexpected failure: ${defect instanceof Error ? defect.message : String(defect)}`)
  if (debug) process.stderr.write(`${Cause.pretty(exit.cause)}\n`)
  return 1
}
