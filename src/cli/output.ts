/** Where output goes: --out, else $CHAINETL_OUT, else ./output. */
import * as path from "node:path"

export const resolveOut = (flag: string | undefined): string => path.resolve(flag ?? process.env["CHAINETL_OUT"] ?? "output")
