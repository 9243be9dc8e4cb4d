#!/usr/bin/env node
// TEMPORARY (issue 17 item 4): compares the one-walk extractor with the legacy
// copy it replaces (src/facts/legacy/) on every script of a repository, and
// times both in this process. Runs on the build:
//
//   npm run build && node bench/facts-parity.mjs bench/out/1k [--calls a,b]
//
// The callee names default to what the model would pass for the repository's
// tripwire.config.json (tests.ids and tests.selfGate calls, sorted).

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const { extractScriptFacts } = await import(path.join(ROOT, 'dist/src/facts/extract-script.js'));
const { legacyExtractScriptFacts } = await import(path.join(ROOT, 'dist/src/facts/legacy/extract-script.js'));

const { values, positionals } = parseArgs({ allowPositionals: true, options: { calls: { type: 'string' }, rounds: { type: 'string', default: '5' } } });
if (positionals.length !== 1) {
  process.stderr.write('usage: node bench/facts-parity.mjs DIR [--calls a,b]\n');
  process.exit(2);
}
const dir = path.resolve(positionals[0]);
const SCRIPT = /\.(?:ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;

function configCalls() {
  const file = path.join(dir, 'tripwire.config.json');
  if (!existsSync(file)) return [];
  const tests = JSON.parse(readFileSync(file, 'utf8')).tests ?? {};
  const names = [...(tests.ids ?? []), ...(tests.selfGate ?? [])].flatMap((entry) => (typeof entry.call === 'string' ? [entry.call] : []));
  return [...new Set(names)].sort();
}
const calls = values.calls === undefined ? configCalls() : values.calls.split(',').filter(Boolean);

const files = readdirSync(dir, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile() && SCRIPT.test(entry.name))
  .map((entry) => path.join(entry.parentPath, entry.name))
  .filter((file) => !/[\\/](?:node_modules|\.git)[\\/]/.test(path.relative(dir, file)))
  .sort();
const texts = files.map((file) => [path.relative(dir, file).split(path.sep).join('/'), readFileSync(file, 'utf8')]);

function run(extract) {
  const out = [];
  const start = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  for (const [file, text] of texts) out.push(JSON.stringify(extract(file, text, { calls })));
  const used = process.cpuUsage(cpu);
  return { out, ms: Number(process.hrtime.bigint() - start) / 1e6, cpuMs: (used.user + used.system) / 1000 };
}

// Warm both up once (the compiler is loaded by the first), then time each, alternating, --rounds times.
run(legacyExtractScriptFacts);
run(extractScriptFacts);
const legacyTimes = [];
const nowTimes = [];
const legacyCpu = [];
const nowCpu = [];
let legacy;
let now;
for (let round = 0; round < Number(values.rounds); round++) {
  legacy = run(legacyExtractScriptFacts);
  legacyTimes.push(legacy.ms);
  legacyCpu.push(legacy.cpuMs);
  now = run(extractScriptFacts);
  nowTimes.push(now.ms);
  nowCpu.push(now.cpuMs);
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const differing = texts.flatMap(([file], i) => (legacy.out[i] === now.out[i] ? [] : [file]));

process.stdout.write(`${dir}: ${texts.length} scripts, calls [${calls.join(', ')}]\n`);
process.stdout.write(`identical: ${texts.length - differing.length} / ${texts.length}\n`);
const figure = (wall, cpu) => `wall ${median(wall).toFixed(0)} ms (min ${Math.min(...wall).toFixed(0)}), cpu ${median(cpu).toFixed(0)} ms (min ${Math.min(...cpu).toFixed(0)})`;
process.stdout.write(`extraction in this process, parse included, median of ${values.rounds} alternating rounds:\n`);
process.stdout.write(`  legacy   ${figure(legacyTimes, legacyCpu)}\n  one walk ${figure(nowTimes, nowCpu)}\n`);
for (const file of differing.slice(0, 20)) process.stdout.write(`  differs: ${file}\n`);
process.exitCode = differing.length === 0 ? 0 : 1;
