#!/usr/bin/env node
// `npm start`: the server (src/entry/node.ts) run from a JavaScript bundle of the sources, rebuilt
// whenever they change (bin/start-bundle.js); where it cannot be built, from the sources through tsx.
import { pathToFileURL } from 'node:url'
import { bundledEntry, ENTRY } from './start-bundle.js'

const entry = await bundledEntry()
if (entry) {
  await import(pathToFileURL(entry).href)
} else {
  const { register } = await import('tsx/esm/api')
  register()
  await import(pathToFileURL(ENTRY).href)
}
