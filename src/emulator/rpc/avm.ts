import type { RpcMethodDef } from "../http/contract.ts"

export const methods: ReadonlyArray<RpcMethodDef> = []
