#!/usr/bin/env node
/**
 * `npm run lock:complete` — after any dependency change on a machine whose registry serves only its
 * own platform's binaries, npm leaves the other platforms' optional packages (DuckDB bindings,
 * rollup, msgpackr-extract) out of package-lock.json, and `npm ci` then refuses the lock
 * ("Missing: … from lock file"). This records each missing optional package with its version and
 * the platform its name states (os, cpu, libc): npm never installs them off their platform, so
 * the entry is all `npm ci` needs. Idempotent.
 */
import { readFileSync, writeFileSync } from "node:fs"
const file = process.argv[2] ?? "package-lock.json"
const lock = JSON.parse(readFileSync(file, "utf8"))
const pkgs = lock.packages
const OS = ["darwin", "linux", "win32", "freebsd", "openbsd", "netbsd", "sunos", "android", "openharmony", "aix"]
const CPU = ["arm64", "x64", "arm", "ia32", "loong64", "ppc64", "riscv64", "s390x", "mips64el", "mipsel", "wasm32"]
const added = []
for (const [path, entry] of Object.entries(pkgs)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const nested = `${path === "" ? "" : path + "/"}node_modules/${name}`
    const top = `node_modules/${name}`
    if (pkgs[nested] || pkgs[top]) continue
    const parts = name.split("/").pop().split("-")
    const os = parts.find((p) => OS.includes(p)) ?? (parts.includes("win32") ? "win32" : undefined)
    const cpu = parts.find((p) => CPU.includes(p)) ?? (name.includes("aarch64") ? "arm64" : undefined)
    if (os === undefined) throw new Error(`cannot tell the platform of ${name}`)
    const e = { version }
    if (cpu) e.cpu = [cpu]
    if (entry.dev) e.dev = true
    if (parts.includes("musl") || parts.includes("musleabihf")) e.libc = ["musl"]
    else if (parts.includes("gnu") || parts.includes("gnueabihf")) e.libc = ["glibc"]
    e.optional = true
    e.os = [os]
    pkgs[top] = e
    added.push(`${name}@${version} (${os}/${cpu ?? "any"})`)
  }
}
lock.packages = Object.fromEntries(Object.entries(pkgs).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a < b ? -1 : a > b ? 1 : 0)))
writeFileSync(file, JSON.stringify(lock, null, 2) + "\n")
console.log(`added ${added.length}:\n${added.join("\n")}`)
