/**
 * The official documents the tests hold the emulator to, kept in the repository's `reference/`
 * (see reference/README.md for each file's origin): one place names the folder, so no test reads
 * a path outside the repository.
 */
import { readFileSync } from "node:fs"

export type ReferenceFile =
  | "data-api.openapi.json"
  | "metrics-api.openapi.json"
  | "metrics-api-v1-avg-tps.openapi.yaml"
  | "platform-jsonrpc.openapi.yaml"
  | "x-chain-jsonrpc.openapi.yaml"
  | "utxo-vectors.json"
  | "network-constants.json"

export const REFERENCE_DIR = new URL("../../reference/", import.meta.url)

export const referenceUrl = (name: ReferenceFile): URL => new URL(name, REFERENCE_DIR)

export const readReference = (name: ReferenceFile): string => readFileSync(referenceUrl(name), "utf8")

export const readReferenceJson = <T>(name: ReferenceFile): T => JSON.parse(readReference(name)) as T
