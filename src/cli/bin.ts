#!/usr/bin/env node
import { main } from './main.js';

const code = await main(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  cwd: process.cwd(),
  env: process.env,
  isTTY: process.stdout.isTTY === true,
  stderrIsTTY: process.stderr.isTTY === true,
});
process.exitCode = code;
// Once its output is out, the command is done: a verdict the result cache served does not wait for the engine,
// whose modules started loading in case the cache missed (engine/verdict.ts), to finish loading for nothing.
process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
