/** parse-prometheus-text-format ships no types: its prom2json-like result, as the verify test reads it. */
declare module "parse-prometheus-text-format" {
  interface Sample {
    readonly value: string
    readonly labels?: Readonly<Record<string, string>>
  }
  interface Family {
    readonly name: string
    readonly help: string
    readonly type: string
    readonly metrics: ReadonlyArray<Sample>
  }
  const parse: (text: string) => ReadonlyArray<Family>
  export default parse
}
