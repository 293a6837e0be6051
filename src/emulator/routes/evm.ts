import type { RouteDef } from "../http/contract.ts"

export const routes: ReadonlyArray<RouteDef> = []
