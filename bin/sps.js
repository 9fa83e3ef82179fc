#!/usr/bin/env node
// `sps <command>`: the CLI (src/cli/main.ts) run through tsx, no build step; the same as
// `npm run -s cli -- <command>`, JSON only on stdout. On the PATH after `npm link` (or `npm install -g .`).
import { register } from 'tsx/esm/api'

register()
await import('../src/cli/main.ts')
