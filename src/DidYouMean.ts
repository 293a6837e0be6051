/** "Did you mean …": the closest known spelling of a mistyped name, if one is close enough. */

const distance = (a: string, b: string): number => {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0] as number
    row[0] = i
    for (let j = 1; j <= b.length; j++) {
      const above = row[j] as number
      row[j] = Math.min(above + 1, (row[j - 1] as number) + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1))
      diagonal = above
    }
  }
  return row[b.length] as number
}

/** The known name nearest to `got` within a third of its length (at least 2 edits), or undefined. */
export const closest = (got: string, known: ReadonlyArray<string>): string | undefined => {
  const limit = Math.max(2, Math.floor(got.length / 3))
  let best: { name: string; d: number } | undefined
  for (const name of known) {
    const d = distance(got.toLowerCase(), name.toLowerCase())
    if (d <= limit && (best === undefined || d < best.d)) best = { name, d }
  }
  return best?.name
}

/** " (did you mean X?)" or "". */
export const didYouMean = (got: string, known: ReadonlyArray<string>): string => {
  const near = closest(got, known)
  return near === undefined ? "" : ` (did you mean ${near}?)`
}
