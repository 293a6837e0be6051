/**
 * JSON bodies parsed without losing integers: `JSON.parse` rounds any integer above 2^53 (an L1
 * validator's weight, a holder's balance), so such integers come back as `bigint`. Other numbers
 * stay `number`. Bodies with no integer literal long enough to be unsafe take the fast native path.
 */
import { isSafeNumber, parse } from "lossless-json"

/** An integer literal of 16+ digits where a JSON value can start: the only kind that can exceed 2^53. */
const mayHoldUnsafeInteger = /[:[,]\s*-?\d{16,}/

const INTEGER = /^-?\d+$/

const toNumberOrBigInt = (text: string): number | bigint =>
  isSafeNumber(text) ? Number(text) : INTEGER.test(text) ? BigInt(text) : Number(text)

export const parseJsonLossless = (text: string): unknown =>
  mayHoldUnsafeInteger.test(text) ? parse(text, null, toNumberOrBigInt) : JSON.parse(text)
