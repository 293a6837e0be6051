/**
 * _rejects: records a service sent that could not be mapped to their dataset. Hive key: dataset.
 */
import { defineSchema, int32, str } from "./common.ts"

export const schema = defineSchema(
  [
    str("slice", "Slice id of the listing the record came from"),
    int32("page", "Page number within that listing (0 = first)"),
    str("raw", "The record as received, JSON text"),
    str("reason", "Why it could not be mapped")
  ],
  "Records that could not be mapped to their dataset's schema, with the reason"
)
