#!/usr/bin/env node
// The second half of `npm run build`: bundles tsc's output of the CLI into dist/cli/.
//
//   node scripts/bundle.mjs
//
// Node 20's ESM loader costs every `tripwire check` 90-150 ms for the ~130
// modules of ours and 95 of zod's it resolves, reads and links (Node 20 has no
// module.enableCompileCache). The bundle is a handful of chunks instead. The
// unbundled dist/src/ stays: the ESLint plugin and `./api` are imported from it.
//
// The CLI and the fact-extraction worker are two entries of one build, written
// flat into one directory: the shared chunks sit beside extract-worker.js, so
// src/facts/pool.ts finds the worker beside whichever module runs it, as it
// does in dist/src/facts/. The commands and reporters that main.ts imports
// lazily stay lazy (code splitting).

import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const outdir = join(root, 'dist/cli');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

// zod (95 ESM modules) and picomatch are bundled. The other dependencies are
// loaded at run time as installed: typescript, markdown-it, yaml, fast-glob and
// simple-git through createRequire, only when needed; jsonc-parser's UMD build
// requires its own modules by computed name, which esbuild cannot follow. The
// peers are the user's.
const BUNDLED = new Set(['zod', 'picomatch']);
const external = [...Object.keys(manifest.dependencies), ...Object.keys(manifest.peerDependencies)].filter((name) => !BUNDLED.has(name));

// A chunk left from an earlier build would be shipped, and hashed by the cache's tool fingerprint.
rmSync(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: { bin: 'dist/src/cli/bin.js', 'extract-worker': 'dist/src/facts/extract-worker.js' },
  outdir,
  entryNames: '[name]',
  chunkNames: '[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  external,
  // Chained to tsc's maps, which carry the TypeScript sources: a stack trace still leads to src/.
  sourcemap: 'linked',
  logLevel: 'warning',
});
