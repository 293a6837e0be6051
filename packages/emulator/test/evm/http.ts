/** A started emulator for the EVM route tests, and a GET that validates the answer against the official document. */
import { expect } from "vitest"
import { validateResponse, type DocName } from "../../../../test/support/openapi.ts"
import type { RunningEmulator } from "../../src/index.ts"
import { toOfficialForm } from "./support.ts"

export interface Answer {
  readonly status: number
  readonly body: any
}

export const getJson = async (url: string): Promise<Answer> => {
  const res = await fetch(url)
  return { status: res.status, body: await res.json() }
}

/** GET a route and check the body against the document's schema for its status (seed forms mapped first). */
export const getValid = async (emu: RunningEmulator, doc: DocName, template: string, path: string, expectStatus = 200): Promise<Answer> => {
  const a = await getJson((doc === "data" ? emu.baseUrl : emu.metricsUrl) + path)
  expect(a.status, JSON.stringify(a.body).slice(0, 300)).toBe(expectStatus)
  expect(validateResponse(doc, template, "get", a.status, toOfficialForm(a.body))).toEqual([])
  return a
}

/** Every page of a list route: follows nextPageToken and checks first, middle and last pages. */
export const allPages = async (emu: RunningEmulator, doc: DocName, template: string, path: string, key: string): Promise<any[][]> => {
  const pages: any[][] = []
  let token: string | undefined
  do {
    const sep = path.includes("?") ? "&" : "?"
    const a = await getJson((doc === "data" ? emu.baseUrl : emu.metricsUrl) + path + (token ? `${sep}pageToken=${encodeURIComponent(token)}` : ""))
    expect(a.status, JSON.stringify(a.body).slice(0, 300)).toBe(200)
    pages.push(a.body[key])
    const checkable = a.body
    if (pages.length === 1 || a.body.nextPageToken === undefined || pages.length % 3 === 2) {
      expect(validateResponse(doc, template, "get", 200, toOfficialForm(checkable))).toEqual([])
    }
    token = a.body.nextPageToken
  } while (token !== undefined)
  return pages
}
