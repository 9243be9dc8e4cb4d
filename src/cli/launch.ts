#!/usr/bin/env node
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { runCommonJs, type CompiledModule } from '../util/code-cache.js';
import type { Io } from './io.js';

// The bin as shipped (dist/cli/bin.js, scripts/bundle.mjs): it runs the CLI's
// bundle beside it (tripwire.cjs) with V8's compiled code of an earlier run
// (util/code-cache.ts), which spares every run most of compiling the bundle's
// functions (README, "Benchmarks"). The unbundled dist/src/cli/bin.js runs the
// same main() without it.

interface Cli {
  main(argv: string[], io: Io): Promise<number>;
  breadth(): number;
}

const argv = process.argv.slice(2);
const bundle = fileURLToPath(new URL('./tripwire.cjs', import.meta.url));
// `--no-cache` reads and writes no cache, compiled code included (the options end at `--`).
const end = argv.indexOf('--');
const codeCache = !(end === -1 ? argv : argv.slice(0, end)).includes('--no-cache');
let compiled: CompiledModule | null = null;
let cli: Cli;
try {
  compiled = runCommonJs(bundle, 'cli', codeCache);
  cli = compiled.exports as Cli;
} catch {
  // Anything amiss (an unreadable cache directory is not): the bundle as require() runs it.
  cli = createRequire(import.meta.url)(bundle) as Cli;
}

const code = await cli.main(argv, {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  cwd: process.cwd(),
  env: process.env,
  isTTY: process.stdout.isTTY === true,
  stderrIsTTY: process.stderr.isTTY === true,
});
process.exitCode = code;
// Once its output is out, the command is done (a verdict the result cache served does not wait for the engine's
// modules, started in case it missed: engine/verdict.ts); the compiled code is kept then, after the output.
process.stdout.write('', () =>
  process.stderr.write('', () => {
    compiled?.keep(cli.breadth());
    process.exit(code);
  }),
);
