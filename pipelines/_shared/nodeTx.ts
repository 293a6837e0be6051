/** Transactions and blocks in the node's json encoding, and the columns both chains share. */
import { Option, Schema } from "effect"
import { decoder } from "../../src/transform/Decode.ts"
import { NodeUint, NodeInt, jsonText } from "./nodeValues.ts"

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
export const outputRow = (assetId: string, fxId: string | undefined, output: unknown) => {
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

export const inputRow = (i: typeof TxInput.Type) => {
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

export const credentialRow = (c: typeof TxCredential.Type) => ({ fx_id: c.fxID ?? null, signatures: c.credential?.signatures ?? c.signatures ?? [] })

/**
 * The tx type, inferred from the fields the json carries: the node's json names no type, but each
 * avalanchego tx type adds its own fields to the base tx (unsignedTx field names below).
 */
export const inferTxType = (chain: "X" | "P", u: Readonly<Record<string, unknown>>): string => {
  const has = (...ks: string[]) => ks.every((k) => u[k] !== undefined)
  if (has("importedInputs")) return "ImportTx"
  if (has("exportedOutputs")) return "ExportTx"
  if (chain === "X") {
    if (has("initialStates")) return "CreateAssetTx"
    if (has("operations")) return "OperationTx"
    return "BaseTx"
  }
  if (has("txID") && !has("outputs")) return "RewardValidatorTx"
  if (has("validator")) {
    const permissionless = has("subnetID")
    if (has("signer") || has("validationRewardsOwner")) return "AddPermissionlessValidatorTx"
    if (has("shares")) return permissionless ? "AddPermissionlessValidatorTx" : "AddValidatorTx"
    return permissionless ? "AddPermissionlessDelegatorTx" : "AddDelegatorTx"
  }
  if (has("chainName", "vmID")) return "CreateChainTx"
  if (has("chainID", "validators")) return "ConvertSubnetToL1Tx"
  if (has("owner")) return "CreateSubnetTx"
  if (has("proofOfPossession", "message")) return "RegisterL1ValidatorTx"
  if (has("message")) return "SetL1ValidatorWeightTx"
  if (has("validationID", "disableAuthorization")) return "DisableL1ValidatorTx"
  if (has("validationID", "balance")) return "IncreaseL1ValidatorBalanceTx"
  return "BaseTx"
}

/** unsignedTx fields a row models; the others are kept as JSON text in `other_fields`. */
const MODELLED = new Set([
  "networkID",
  "blockchainID",
  "outputs",
  "inputs",
  "memo",
  "sourceChain",
  "importedInputs",
  "destinationChain",
  "exportedOutputs",
  "name",
  "symbol",
  "denomination",
  "initialStates",
  "validator",
  "stake",
  "subnetID",
  "txID"
])

const Validator = Schema.Struct({ nodeID: Schema.String, start: opt(NodeUint), end: opt(NodeUint), weight: opt(NodeUint) })
const InitialState = Schema.Struct({ fxIndex: opt(NodeInt), fxID: opt(Schema.String), outputs: opt(Schema.Array(Schema.Unknown)) })

/** The parts of a json unsignedTx both chains share; decoded leniently (unknown types pass). */
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
  initialStates: opt(Schema.Array(InitialState)),
  validator: opt(Validator),
  stake: opt(Schema.Array(TxOutput)),
  subnetID: opt(Schema.String),
  txID: opt(Schema.String)
})

/** A tx in the node's json encoding: {unsignedTx, credentials, id}. */
export const NodeTx = Schema.Struct({ unsignedTx: Schema.Record({ key: Schema.String, value: Schema.Unknown }), credentials: opt(Schema.Array(TxCredential)), id: Schema.String })

const decodeUnsigned = decoder(UnsignedTx)
const outputs = (os: ReadonlyArray<typeof TxOutput.Type> | undefined) => (os ?? []).map((o) => outputRow(o.assetID, o.fxID, o.output))

/** The columns of a json tx both node_transactions (X) and node_p_blocks' txs (P) carry. */
export const txColumns = (chain: "X" | "P", tx: typeof NodeTx.Type) => {
  const u = decodeUnsigned(tx.unsignedTx)
  const other = Object.fromEntries(Object.entries(tx.unsignedTx).filter(([k]) => !MODELLED.has(k)))
  return {
    tx_id: tx.id,
    tx_type: inferTxType(chain, tx.unsignedTx),
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

/** A block in the node's json encoding; `time` is not in the seed's P-chain block, so optional. */
export const nodeBlock = <A, I>(tx: Schema.Schema<A, I, never>) =>
  Schema.Struct({
    id: opt(Schema.String),
    parentID: Schema.String,
    height: NodeUint,
    time: opt(NodeUint),
    txs: Schema.Array(tx)
  })
