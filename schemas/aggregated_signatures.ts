/**
 * aggregated_signatures: the signed warp message of each L1-related P-chain transaction found in
 * staking_transactions (route 1); join staking_transactions on
 * (network, tx_hash) for its type and block. Hive key: network.
 */
import { defineSchema, hash, str } from "./common.ts"

export const schema = defineSchema(
  [
    hash("tx_hash", "P-chain transaction the warp message is about (cb58)", { nullable: false }),
    str("signed_message", "Signed warp message (unsigned message plus aggregated BLS signature), hex as sent")
  ],
  "Aggregated signatures over the warp messages of L1-related P-chain transactions (chain-data route 1)"
)
