#!/usr/bin/env node
// Runs the TypeScript sources through tsx so `npx chainetl` works straight after `npm install`,
// with no build step a user could forget.
import { register } from "tsx/esm/api"

register()
await import("../src/bin.ts")
