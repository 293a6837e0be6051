/**
 * aggregated_signatures: the signed warp message of each L1-related P-chain transaction found in
 * staking_transactions (route 1); join staking_transactions on (network, tx_hash) for its type and
 * block. Hive key: network. The record is route 1's answer with the tx hash it was asked for.
 */
import { Schema } from "effect"
import { col, defineTable } from "./columns.ts"

const Hex = Schema.String.pipe(Schema.pattern(/^(0x)?([0-9a-fA-F]{2})+$/, { message: () => "expected hex" }))

export const table = defineTable("Aggregated signatures over the warp messages of L1-related P-chain transactions (chain-data route 1)", {
  network: col.str("Network of the transaction: mainnet or fuji").fromSlice(),
  tx_hash: col.hash("P-chain transaction the warp message is about (cb58)").from("txHash"),
  signed_message: col.str("Signed warp message (unsigned message plus aggregated BLS signature), hex as sent").from("signedMessage", { wire: Hex })
})
