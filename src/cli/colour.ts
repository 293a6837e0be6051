/**
 * Colour only for a person at a terminal: ANSI codes (from @effect/cli's help and errors) are
 * stripped when stdout is not a terminal or NO_COLOR is set (https://no-color.org).
 */
// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;]*[A-Za-z]/g

export const colourAllowed = (stream: NodeJS.WriteStream = process.stdout): boolean =>
  stream.isTTY === true && (process.env["NO_COLOR"] ?? "") === ""

export const plain = (text: string): string => text.replace(ANSI, "")
