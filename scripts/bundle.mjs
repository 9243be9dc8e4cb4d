#!/usr/bin/env node
// The second half of `npm run build`: bundles tsc's output of the CLI into dist/cli/.
//
//   node scripts/bundle.mjs
//
// Node 20's ESM loader costs every `tripwire check` 90-150 ms for the ~130
// modules of ours and 95 of zod's it resolves, reads and links (Node 20 has no
// module.enableCompileCache). The CLI is one CommonJS bundle instead,
// tripwire.cjs, which the bin (bin.js, from src/cli/launch.ts) runs with V8's
// compiled code of an earlier run (src/util/code-cache.ts): CommonJS, because
// only a classic script can be given compiled code (vm.Script; an ES module
// cannot, without a flag). The commands and reporters that main.ts imports
// lazily stay lazy: their modules are initialised when first imported. The
// unbundled dist/src/ stays: the ESLint plugin and `./api` are imported from
// it.
//
// The fact-extraction worker is a CommonJS bundle of its own beside
// tripwire.cjs, extract-worker.cjs, where src/facts/pool.ts finds it (as it
// finds extract-worker.js in dist/src/facts/): a worker thread whose entry is
// CommonJS starts about 20 ms sooner than one that starts Node's ESM loader.

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

// Where every bundle finds the worker (src/facts/pool.ts, workerUrl).
const WORKER_ENTRY = { __TRIPWIRE_WORKER_ENTRY__: '"./extract-worker.cjs"' };

const common = {
  absWorkingDir: root,
  define: WORKER_ENTRY,
  bundle: true,
  platform: 'node',
  target: 'node20.19',
  external,
  // ASCII: the source is then read as Latin-1, a copy, not decoded (src/util/code-cache.ts, sourceText).
  charset: 'ascii',
  // Chained to tsc's maps, which carry the TypeScript sources: a stack trace still leads to src/.
  sourcemap: 'linked',
  logLevel: 'warning',
};

// What each CommonJS bundle needs besides: the modules' import.meta.url is the bundle's file (it finds the dependencies,
// the package root and the worker from there).
const commonJs = {
  format: 'cjs',
  define: { ...WORKER_ENTRY, 'import.meta.url': '__tripwireBundleUrl' },
  banner: { js: 'var __tripwireBundleUrl = require("node:url").pathToFileURL(__filename).href;' },
};

// A file left from an earlier build would be shipped, and hashed by the cache's tool fingerprint.
rmSync(outdir, { recursive: true, force: true });
await Promise.all([
  build({ ...common, ...commonJs, entryPoints: ['dist/src/cli/bundle-entry.js'], outfile: join(outdir, 'tripwire.cjs') }),
  build({ ...common, ...commonJs, entryPoints: ['dist/src/facts/extract-worker.js'], outfile: join(outdir, 'extract-worker.cjs') }),
  build({ ...common, entryPoints: ['dist/src/cli/launch.js'], outfile: join(outdir, 'bin.js'), format: 'esm' }),
]);
