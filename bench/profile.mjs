#!/usr/bin/env node
// Summarises a V8 CPU profile: self time by module and by function, and
// inclusive time by function (each sample counted once per function on its
// stack, so recursion does not inflate it).
//
//   node --cpu-prof --cpu-prof-dir bench/out/prof dist/cli/bin.js check --no-cache --cwd bench/out/10k
//   node bench/profile.mjs bench/out/prof/*.cpuprofile [--top 25]

import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: 'string', default: '25' } } });
const top = Number(values.top);
if (positionals.length !== 1) {
  process.stderr.write('usage: node bench/profile.mjs FILE.cpuprofile [--top N]\n');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(positionals[0], 'utf8'));

function moduleOf(url, name) {
  if (url === '') return name.startsWith('(') ? name : '(native)';
  const nm = url.lastIndexOf('/node_modules/');
  if (nm !== -1) {
    const rest = url.slice(nm + '/node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (url.startsWith('node:')) return url.startsWith('node:internal/') ? 'node:internal' : url;
  const dist = url.indexOf('/dist/');
  return dist !== -1 ? url.slice(dist + 1) : url.replace(/^file:\/\//, '');
}

const nodes = new Map();
const parent = new Map();
for (const node of profile.nodes) {
  nodes.set(node.id, node);
  for (const child of node.children ?? []) parent.set(child, node.id);
}
const label = (node) => {
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url === '' ? '' : ` ${moduleOf(url, functionName)}:${lineNumber + 1}`;
  return `${functionName || '(anonymous)'}${where}`;
};

const selfByFunction = new Map();
const selfByModule = new Map();
const inclusive = new Map();
let total = 0;
const add = (map, key, ms) => map.set(key, (map.get(key) ?? 0) + ms);
let time = profile.startTime;
for (let i = 0; i < profile.samples.length; i++) {
  time += profile.timeDeltas[i];
  const next = i + 1 < profile.samples.length ? time + profile.timeDeltas[i + 1] : profile.endTime;
  const ms = Math.max(0, next - time) / 1000;
  total += ms;
  const node = nodes.get(profile.samples[i]);
  add(selfByFunction, label(node), ms);
  add(selfByModule, moduleOf(node.callFrame.url, node.callFrame.functionName), ms);
  const seen = new Set();
  for (let id = node.id; id !== undefined; id = parent.get(id)) {
    const key = label(nodes.get(id));
    if (seen.has(key)) continue;
    seen.add(key);
    add(inclusive, key, ms);
  }
}

const print = (title, map, filter = () => true) => {
  process.stdout.write(`\n${title}\n`);
  const rows = [...map].filter(([key]) => filter(key)).sort((a, b) => b[1] - a[1]).slice(0, top);
  for (const [key, ms] of rows) process.stdout.write(`${ms.toFixed(0).padStart(8)} ms ${((100 * ms) / total).toFixed(1).padStart(5)}%  ${key}\n`);
};
process.stdout.write(`profile: ${total.toFixed(0)} ms sampled\n`);
print('self time by module', selfByModule);
print('self time by function', selfByFunction);
print('inclusive time by function (tripwire code and its entry points)', inclusive, (key) => !key.startsWith('(root)') && !/node:internal|\(program\)|\(idle\)/.test(key));
