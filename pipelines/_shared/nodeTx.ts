/** X-chain transactions in the node's json encoding (avm.getTx): their inputs, outputs and credentials as rows, and their type. */
import { Option, Schema } from "effect"
import { RecordError } from "../../src/crawl/Dataset.ts"
import { decoder } from "../../src/transform/Decode.ts"
import type { CredentialRow, InputRow, OutputRow } from "../../schemas/_node.ts"
import { NodeUint, NodeInt, jsonText } from "../../schemas/wire.ts"

const opt = Schema.optional

const TransferOutput = Schema.Struct({ addresses: Schema.Array(Schema.String), amount: opt(NodeUint), locktime: opt(NodeUint), threshold: opt(NodeInt) })
const StakeableOutput = Schema.Struct({ locktime: NodeUint, output: TransferOutput })
const decodeTransferOut = Schema.decodeUnknownOption(TransferOutput)
const decodeStakeableOut = Schema.decodeUnknownOption(StakeableOutput)

/** An output as the node's json writes it: {assetID, fxID, output}. */
export const TxOutput = Schema.Struct({ assetID: Schema.String, fxID: opt(Schema.String), output: Schema.Unknown })

/**
 * An output's row: a secp256k1 transfer output, or a P-chain stakeable lock around one; any other
 * shape (mint, NFT, property outputs) keeps its fields as JSON text in `output_json`.
 */
export const outputRow = (assetId: string, fxId: string | undefined, output: unknown): OutputRow => {
  const staked = decodeStakeableOut(output)
  const transfer = staked._tag === "Some" ? Option.some(staked.value.output) : decodeTransferOut(output)
  const t = transfer._tag === "Some" ? transfer.value : undefined
  return {
    asset_id: assetId,
    fx_id: fxId ?? null,
    amount: t?.amount ?? null,
    locktime: t?.locktime ?? null,
    threshold: t?.threshold ?? null,
    addresses: t?.addresses ?? [],
    stakeable_locktime: staked._tag === "Some" ? staked.value.locktime : null,
    output_json: t === undefined ? jsonText(output) : null
  }
}

const TransferInput = Schema.Struct({ amount: NodeUint, signatureIndices: opt(Schema.Array(NodeInt)) })
const StakeableInput = Schema.Struct({ locktime: NodeUint, input: TransferInput })
const decodeTransferIn = Schema.decodeUnknownOption(TransferInput)
const decodeStakeableIn = Schema.decodeUnknownOption(StakeableInput)

/** An input as the node's json writes it: the UTXO it spends and {amount, signatureIndices}. */
export const TxInput = Schema.Struct({ txID: Schema.String, outputIndex: NodeInt, assetID: Schema.String, fxID: opt(Schema.String), input: Schema.Unknown })

export const inputRow = (i: typeof TxInput.Type): InputRow => {
  const staked = decodeStakeableIn(i.input)
  const transfer = staked._tag === "Some" ? Option.some(staked.value.input) : decodeTransferIn(i.input)
  const t = transfer._tag === "Some" ? transfer.value : undefined
  return {
    tx_id: i.txID,
    output_index: i.outputIndex,
    asset_id: i.assetID,
    fx_id: i.fxID ?? null,
    amount: t?.amount ?? null,
    signature_indices: t?.signatureIndices ?? [],
    stakeable_locktime: staked._tag === "Some" ? staked.value.locktime : null,
    input_json: t === undefined ? jsonText(i.input) : null
  }
}

/** X-chain credentials are {fxID, credential: {signatures}}, P-chain ones {signatures}. */
export const TxCredential = Schema.Struct({
  fxID: opt(Schema.String),
  credential: opt(Schema.Struct({ signatures: Schema.Array(Schema.String) })),
  signatures: opt(Schema.Array(Schema.String))
})

export const credentialRow = (c: typeof TxCredential.Type): CredentialRow => ({ fx_id: c.fxID ?? null, signatures: c.credential?.signatures ?? c.signatures ?? [] })

/**
 * The X-chain's tx types by the fields each adds to the base tx, as avalanchego's json tags name
 * them (vms/avm/txs/{base_tx,create_asset_tx,operation_tx,import_tx,export_tx}.go; the AVM codec
 * registers these five, vms/avm/txs/codec.go). Each set is its type's alone, so the json decides
 * the type; a tx whose fields match none is a shape this chainetl does not know, and is rejected.
 */
export const X_TX_FIELDS = {
  BaseTx: [],
  CreateAssetTx: ["name", "symbol", "denomination", "initialStates"],
  OperationTx: ["operations"],
  ImportTx: ["sourceChain", "importedInputs"],
  ExportTx: ["destinationChain", "exportedOutputs"]
} as const satisfies Record<string, ReadonlyArray<string>>

/** avax.BaseTx's fields, which every X-chain tx starts with (vms/components/avax/base_tx.go). */
export const X_BASE_FIELDS = ["networkID", "blockchainID", "outputs", "inputs", "memo"] as const

export type XTxType = keyof typeof X_TX_FIELDS

export const xTxType = (u: Readonly<Record<string, unknown>>): XTxType => {
  const extra = Object.keys(u).filter((k) => !(X_BASE_FIELDS as ReadonlyArray<string>).includes(k))
  const missing = X_BASE_FIELDS.filter((k) => !(k in u))
  const found = (Object.keys(X_TX_FIELDS) as XTxType[]).find((t) => {
    const fields: ReadonlyArray<string> = X_TX_FIELDS[t]
    return fields.length === extra.length && extra.every((k) => fields.includes(k))
  })
  if (found === undefined || missing.length > 0) {
    throw new RecordError(`an X-chain tx whose json fields match no tx type this chainetl knows: ${[...extra.map((k) => `+${k}`), ...missing.map((k) => `-${k}`)].join(", ") || "(none)"}`)
  }
  return found
}

/** unsignedTx fields a row models; the others are kept as JSON text in `other_fields`. */
const MODELLED = new Set([
  ...X_BASE_FIELDS,
  "sourceChain",
  "importedInputs",
  "destinationChain",
  "exportedOutputs",
  "name",
  "symbol",
  "denomination",
  "initialStates"
])

const InitialState = Schema.Struct({ fxIndex: opt(NodeInt), fxID: opt(Schema.String), outputs: opt(Schema.Array(Schema.Unknown)) })

/** The parts of an X-chain json unsignedTx the columns take; decoded leniently (unknown types pass). */
export const UnsignedTx = Schema.Struct({
  networkID: opt(NodeInt),
  blockchainID: opt(Schema.String),
  outputs: opt(Schema.Array(TxOutput)),
  inputs: opt(Schema.Array(TxInput)),
  memo: opt(Schema.String),
  sourceChain: opt(Schema.String),
  importedInputs: opt(Schema.Array(TxInput)),
  destinationChain: opt(Schema.String),
  exportedOutputs: opt(Schema.Array(TxOutput)),
  name: opt(Schema.String),
  symbol: opt(Schema.String),
  denomination: opt(NodeInt),
  initialStates: opt(Schema.Array(InitialState))
})

/** A tx in the node's json encoding: {unsignedTx, credentials, id}. */
export const NodeTx = Schema.Struct({ unsignedTx: Schema.Record({ key: Schema.String, value: Schema.Unknown }), credentials: opt(Schema.Array(TxCredential)), id: Schema.String })

const decodeUnsigned = decoder(UnsignedTx)
const outputs = (os: ReadonlyArray<typeof TxOutput.Type> | undefined) => (os ?? []).map((o) => outputRow(o.assetID, o.fxID, o.output))

/** The columns of an X-chain json tx (node_transactions). */
export const txColumns = (tx: typeof NodeTx.Type) => {
  const u = decodeUnsigned(tx.unsignedTx)
  const other = Object.fromEntries(Object.entries(tx.unsignedTx).filter(([k]) => !MODELLED.has(k)))
  return {
    tx_id: tx.id,
    tx_type: xTxType(tx.unsignedTx),
    network_id: u.networkID ?? null,
    blockchain_id: u.blockchainID ?? null,
    memo: u.memo ?? null,
    inputs: (u.inputs ?? []).map(inputRow),
    outputs: outputs(u.outputs),
    source_chain: u.sourceChain ?? null,
    imported_inputs: (u.importedInputs ?? []).map(inputRow),
    destination_chain: u.destinationChain ?? null,
    exported_outputs: outputs(u.exportedOutputs),
    credentials: (tx.credentials ?? []).map(credentialRow),
    other_fields: Object.keys(other).length > 0 ? jsonText(other) : null,
    unsigned: u
  }
}
