/**
 * The one error the P-chain decoder throws: the bytes are not a block (or tx) avalanchego's
 * P-chain codec would accept. The message names what was wrong and the byte offset where, so a
 * bad block can be found again from the log alone; no partial result is ever returned.
 */
export class PvmDecodeError extends Error {
  override readonly name = "PvmDecodeError"
  constructor(
    message: string,
    /** Offset into the decoded bytes (0 = their first byte, the codec version). */
    readonly offset: number
  ) {
    super(message)
  }
}
