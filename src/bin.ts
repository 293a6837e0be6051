/** Entry of the `chainetl` binary (src/cli/main.ts is the program). */
import { main } from "./cli/main.ts"

process.exitCode = await main(process.argv)
