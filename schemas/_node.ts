/**
 * Columns the node datasets share: a block's header (node_x_blocks, node_p_blocks) and a tx in the
 * node's json (node_transactions' rows, node_p_blocks' txs), with its inputs, outputs and
 * credentials. All are computed: from the P-chain's bytes (pipelines/_shared/pTxRow.ts) or from
 * the X-chain's json (pipelines/_shared/nodeTx.ts), whose rows these types hold to one shape.
 */
import { col, type ValueOf } from "./columns.ts"

export const blockColumns = {
  network: col.str("Network of the node: mainnet or fuji").fromSlice(),
  height: col.int64("Block height"),
  block_id: col.hash("Block id: cb58 of the sha256 of the block's bytes"),
  parent_id: col.hash("Parent block id (cb58)"),
  block_type: col.str(
    "Block type, avalanchego's struct name: on the P-chain ApricotProposalBlock, ApricotCommitBlock, ApricotAbortBlock, ApricotStandardBlock, ApricotAtomicBlock, BanffProposalBlock, BanffCommitBlock, BanffAbortBlock or BanffStandardBlock (from the codec's type id); on the X-chain StandardBlock, its one type since it became a chain of blocks (Cortina)"
  ),
  block_timestamp: col.ts("Block time (UTC); null for P-chain blocks of the Apricot era, whose bytes carry no time (their date is the P-chain's genesis day, 2020-09-10)").nullable(),
  tx_count: col.int32("Transactions in the block")
}

export const outputStruct = col.struct(
  {
    asset_id: col.hash("Asset id (cb58)"),
    fx_id: col.hash("Feature extension id (cb58; secp256k1fx for transfers)").nullable(),
    amount: col.amount("Amount in the asset's smallest unit (null for outputs without one: mint, NFT)").nullable(),
    locktime: col.int64("Unix time before which the output cannot be spent (0: none)").nullable(),
    threshold: col.int32("Signatures required to spend").nullable(),
    addresses: col.list(col.address("Address"), "Owners, bech32 with chain prefix, as the node writes them"),
    stakeable_locktime: col.int64("P-chain stakeable lock: Unix time before which the output may only be staked (null: not locked)").nullable(),
    output_json: col.str("The output as sent, JSON text, when it is not a transfer output (mint, NFT…); null otherwise").nullable()
  },
  "Output"
)

export const inputStruct = col.struct(
  {
    tx_id: col.hash("Transaction that created the spent output (cb58)"),
    output_index: col.int32("Index of the spent output in that transaction"),
    asset_id: col.hash("Asset id (cb58)"),
    fx_id: col.hash("Feature extension id (cb58)").nullable(),
    amount: col.amount("Amount spent in the asset's smallest unit").nullable(),
    signature_indices: col.list(col.int32("Index"), "Which owners sign, by index in the output's address list"),
    stakeable_locktime: col.int64("P-chain stakeable lock of the spent output (null: not locked)").nullable(),
    input_json: col.str("The input as sent, JSON text, when it is not a transfer input; null otherwise").nullable()
  },
  "Input"
)

export const credentialStruct = col.struct(
  {
    fx_id: col.hash("Feature extension id (X-chain credentials; null on the P-chain)").nullable(),
    signatures: col.list(col.str("Signature"), "Signatures, 0x hex")
  },
  "Credential"
)

export type OutputRow = ValueOf<typeof outputStruct>
export type InputRow = ValueOf<typeof inputStruct>
export type CredentialRow = ValueOf<typeof credentialStruct>

/** The json tx columns both chains share. */
export const txColumns = {
  tx_id: col.hash("Transaction id (cb58)"),
  tx_type: col.str(
    "Tx type, avalanchego's struct name (BaseTx, ImportTx, ExportTx, CreateAssetTx, OperationTx on the X-chain; AddValidatorTx … DisableL1ValidatorTx on the P-chain): on the P-chain from the codec's type id in the bytes, on the X-chain from the json's fields (each type has its own set)"
  ),
  network_id: col.int32("Network id in the tx (1 mainnet, 5 fuji)").nullable(),
  blockchain_id: col.hash("Blockchain the tx was issued on (cb58)").nullable(),
  memo: col.str("Memo, 0x hex").nullable(),
  inputs: col.list(inputStruct, "Inputs: the outputs this tx spends"),
  outputs: col.list(outputStruct, "Outputs this tx creates"),
  source_chain: col.hash("ImportTx: blockchain the imported outputs come from").nullable(),
  imported_inputs: col.list(inputStruct, "ImportTx: atomic inputs spent from the source chain"),
  destination_chain: col.hash("ExportTx: blockchain the exported outputs go to").nullable(),
  exported_outputs: col.list(outputStruct, "ExportTx: outputs sent to the destination chain"),
  credentials: col.list(credentialStruct, "One credential per spent input, in input order"),
  other_fields: col
    .str(
      "The tx type's fields not modelled as columns, under their json names, as JSON text (null when none): e.g. an AdvanceTimeTx's time, a staker's owners and shares, a chain's genesis"
    )
    .nullable()
}
