#!/usr/bin/env node
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { startEarlyWorker } from '../engine/early-worker.js';
import { optionsOf, startEarlyGit } from '../engine/early-git.js';
import { runCommonJs, type CompiledModule } from '../util/code-cache.js';
import type * as Bundle from './bundle-entry.js';
import { exitWhenFlushed, processIo } from './io.js';

// The bin as shipped (dist/cli/bin.js, scripts/bundle.mjs): it runs the CLI's
// bundle beside it (tripwire.cjs) with V8's compiled code of an earlier run
// (util/code-cache.ts), which spares every run most of compiling the bundle's
// functions (README, "Benchmarks"). The unbundled dist/src/cli/bin.js runs the
// same main() without it.

const argv = process.argv.slice(2);
const bundle = fileURLToPath(new URL('./tripwire.cjs', import.meta.url));
// `--no-cache` reads and writes no cache, compiled code included.
const options = optionsOf(argv);
const codeCache = !options.includes('--no-cache');
// A staged check's worker starts loading the compiler now, before the bundle does (engine/early-worker.ts); a
// work-tree check's listing is under way while it loads (engine/early-git.ts).
const worker = argv[0] === 'check' && options.includes('--staged') && codeCache ? startEarlyWorker() : null;
const git = startEarlyGit(argv, process.cwd());
let compiled: CompiledModule | null = null;
let cli: typeof Bundle;
try {
  compiled = runCommonJs(bundle, 'cli', codeCache);
  cli = compiled.exports as typeof Bundle;
} catch {
  // The bundle could not be read or run from its source (an unusable cache directory is no such thing): require() runs it.
  cli = createRequire(import.meta.url)(bundle) as typeof Bundle;
}

if (worker) cli.handEarlyWorker(worker);
if (git) cli.handEarlyGit(git);
const code = await cli.main(argv, processIo());
worker?.dispose();
// The compiled code is kept once the output is out.
exitWhenFlushed(code, () => compiled?.keep(cli.breadth()));
