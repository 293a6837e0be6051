import { describe, expect, it } from "vitest"
import { compileOpenApi, schemaFor, validateResponse } from "./openapi.ts"

const chain = {
  chainId: "43114",
  status: "OK",
  chainName: "C-Chain",
  description: "the contract chain",
  vmName: "EVM",
  rpcUrl: "http://127.0.0.1/ext/bc/C/rpc",
  isTestnet: false,
  networkToken: { name: "Avalanche", symbol: "AVAX", decimals: 18 }
}

const completedDelegator = {
  txHash: "2x",
  nodeId: "NodeID-1",
  rewardAddresses: ["avax1x"],
  amountDelegated: "25000000000",
  delegationFee: "2",
  startTimestamp: 1,
  endTimestamp: 2,
  grossReward: "10",
  netReward: "9",
  delegationStatus: "completed"
}

describe("validateResponse against the official chain-data document", () => {
  it("given a chain record with every required field, when validated, then there are no errors", () => {
    expect(validateResponse("data", "/v1/chains/{chainId}", "get", 200, chain)).toEqual([])
  })

  it("given a chain record with a field the document lacks, when validated, then the field is named", () => {
    expect(validateResponse("data", "/v1/chains/{chainId}", "get", 200, { ...chain, unexpectedField: "x" })).toEqual([
      '(body) must NOT have additional properties "unexpectedField"'
    ])
  })

  it("given a nested object with an extra field, when validated, then the nested path is reported", () => {
    const errors = validateResponse("data", "/v1/chains/{chainId}", "get", 200, {
      ...chain,
      networkToken: { ...chain.networkToken, color: "red" }
    })
    expect(errors).toEqual(['/networkToken must NOT have additional properties "color"'])
  })

  it("given a status outside the enum, when validated, then the allowed values are listed", () => {
    expect(validateResponse("data", "/v1/chains/{chainId}", "get", 200, { ...chain, status: "DOWN" })).toEqual([
      '/status must be equal to one of the allowed values ["OK","UNAVAILABLE"]'
    ])
  })

  it("given a discriminated list item, when validated, then only the branch of its tag reports", () => {
    const body = { delegators: [{ ...completedDelegator, zz: 1 }] }
    expect(validateResponse("data", "/v1/networks/{network}/delegators", "get", 200, body)).toEqual([
      '/delegators/0 must NOT have additional properties "zz"'
    ])
    expect(validateResponse("data", "/v1/networks/{network}/delegators", "get", 200, { delegators: [completedDelegator] })).toEqual([])
  })

  it("given the seed's 200 for route 1, when the document lists only 201, then the 201 schema applies", () => {
    const path = "/v1/signatureAggregator/{network}/aggregateSignatures/{txHash}"
    expect(validateResponse("data", path, "get", 200, { signedMessage: "0xab" })).toEqual([])
    expect(validateResponse("data", path, "get", 200, {})).toEqual(["(body) must have required property 'signedMessage'"])
  })

  it("given error bodies, when validated, then a string message passes and a missing error field fails", () => {
    expect(validateResponse("data", "/v1/chains/{chainId}", "get", 404, { message: "no", statusCode: 404, error: "Not Found" })).toEqual([])
    expect(validateResponse("data", "/v1/chains/{chainId}", "get", 404, { message: "no", statusCode: 404 })).toEqual([
      "(body) must have required property 'error'"
    ])
  })

  it("given a status the route does not document, when validated, then that is the error", () => {
    expect(validateResponse("data", "/v1/chains/{chainId}", "get", 418, {})).toEqual([
      "status 418 is not documented for GET /v1/chains/{chainId}"
    ])
  })

  it("given route 19, which neither document has, when validated, then it throws", () => {
    expect(() => validateResponse("metrics", "/v1/avg_tps/{chainId}", "get", 200, {})).toThrow(/not in the/)
  })
})

describe("validateResponse against the official metrics document", () => {
  it("given metric points, when validated, then a good page passes and an extra field fails", () => {
    const path = "/v2/chains/{chainId}/metrics/{metric}"
    expect(validateResponse("metrics", path, "get", 200, { results: [{ value: 1, timestamp: 1735689600 }] })).toEqual([])
    expect(validateResponse("metrics", path, "get", 200, { results: [{ value: 1, timestamp: 1, extra: true }] })).toEqual([
      '/results/0 must NOT have additional properties "extra"'
    ])
  })

  it("given an error with an array message, when validated, then it passes", () => {
    const body = { message: ["pageSize must be an integer between 1 and 2160"], statusCode: 400, error: "Bad Request" }
    expect(validateResponse("metrics", "/v2/chains/{chainId}/metrics/{metric}", "get", 400, body)).toEqual([])
  })
})

describe("compileOpenApi schema preparation", () => {
  const doc = {
    paths: {
      "/x": { get: { responses: { "200": { content: { "application/json": { schema: { $ref: "#/components/schemas/Both" } } } } } } }
    },
    components: {
      schemas: {
        A: { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
        B: { type: "object", properties: { b: { type: "string", nullable: true } } },
        Both: {
          allOf: [{ $ref: "#/components/schemas/A" }, { $ref: "#/components/schemas/B" }],
          properties: { note: { allOf: [{ $ref: "#/components/schemas/A" }], nullable: true } }
        }
      }
    }
  }
  const v = compileOpenApi(doc, "https://chainetl.test/tiny.json")

  it("given an allOf of two closed components, when a body has both parts, then it passes", () => {
    expect(v.validateResponse("/x", "get", 200, { a: "1", b: "2" })).toEqual([])
  })

  it("given an allOf composition, when a body has a field of neither part, then it fails", () => {
    expect(v.validateResponse("/x", "get", 200, { a: "1", c: 3 })).toEqual(['(body) must NOT have unevaluated properties "c"'])
  })

  it("given nullable fields, when they are null, then they pass, and a wrong type still fails", () => {
    expect(v.validateResponse("/x", "get", 200, { a: "1", b: null, note: null })).toEqual([])
    expect(v.validateResponse("/x", "get", 200, { a: "1", b: 5 })).toEqual(["/b must be string,null"])
  })

  it("given the prepared schema, when read, then nullable became a null type", () => {
    expect(v.schemaFor("/x", "get", 200)).toEqual({ $ref: "https://chainetl.test/tiny.json#/components/schemas/Both" })
    expect(schemaFor("data", "/v1/chains/{chainId}", "get", 200)).toMatchObject({ $ref: expect.stringContaining("GetChainResponse") })
  })
})
