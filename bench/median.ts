/** The median of a bench's repeated measurements (the mean of the two middle ones for an even count). */
export const median = (xs: ReadonlyArray<number>): number => {
  if (xs.length === 0) return 0
  const s = [...xs].sort((a, b) => a - b)
  const mid = Math.floor(s.length / 2)
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2
}
