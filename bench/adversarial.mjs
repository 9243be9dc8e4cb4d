#!/usr/bin/env node
// Adversarial sizes (issue 16): what one oversized input costs a cold check.
// For each case it generates a real git repository under
// bench/out/adversarial/<case> (once; reused while its marker file says the
// same generator version), runs `tripwire check --no-cache --format json`
// --warmups untimed and --runs timed times, checks each run's exit code and findings,
// and prints a Markdown table: wall median (minimum) · CPU median · peak RSS.
//
//   npm run bench:adversarial -- --runs 5         # builds first
//   node bench/adversarial.mjs --only large-file --runs 3
//   node bench/adversarial.mjs --bin /tmp/old/dist/cli/bin.js --timeout 300   # another build, for a before column
//
// Cases:
//   large-file     a test imports a 50 MB generated module (over limits.maxFileBytes: one fileTooLarge finding)
//   large-map      a touchfile map and a tier map of 20,000 entries each, ids from a 20,000-element literal list (clean)
//   removed-tokens 50,000 removed tokens; 40 guides of 2,000 lines, each naming one (40 removedToken warnings)
//   many-files     the synthetic harness of bench/generate.mjs at 67,500 test files: about 100,000 tracked files
//                  (its seeded paid calls in free tests are the findings; generated once, ~10 min)
//
// Timings live here and in the README, never in test assertions.

import { existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { median, RSS_SOURCE, runOnce } from './lib/measure.mjs';
import { commitAll, initRepository } from './lib/repo.mjs';
import { generate } from './generate.mjs';

const BENCH = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.dirname(BENCH);
/** Bump when a generator below changes: a repository with another marker is generated again. */
const GENERATOR = 1;
const DATE = '2026-01-01T00:00:00Z';

const write = (dir, file, text) => {
  mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  writeFileSync(path.join(dir, file), text);
};

const CASES = {
  'large-file': {
    label: 'a 50 MB generated module a test imports',
    generate(dir) {
      write(dir, 'tripwire.config.json', JSON.stringify({ tests: { include: ['test/**/*.test.ts'] } }, null, 2));
      write(dir, 'test/rows.test.ts', "import { test } from 'vitest';\nimport { rows } from './fixtures/rows.js';\ntest('rows', () => rows);\n");
      const row = '  { id: 12345, name: "generated-row", tags: ["a", "b", "c"], value: 3.14159 },\n';
      mkdirSync(path.join(dir, 'test/fixtures'), { recursive: true });
      const fd = openSync(path.join(dir, 'test/fixtures/rows.ts'), 'w');
      writeSync(fd, 'export const rows = [\n');
      const count = Math.ceil((50 * 1024 * 1024) / row.length);
      for (let i = 0; i < count; i += 1000) writeSync(fd, row.repeat(Math.min(1000, count - i)));
      writeSync(fd, '];\n');
      closeSync(fd);
    },
    expect: { exit: 1, findings: ['read-error/fileTooLarge test/fixtures/rows.ts'] },
  },
  'large-map': {
    label: 'touchfile and tier maps of 20,000 entries',
    generate(dir) {
      const ids = Array.from({ length: 20_000 }, (_, i) => `case-${String(i).padStart(5, '0')}`);
      write(
        dir,
        'tripwire.config.json',
        JSON.stringify(
          {
            tests: { include: ['test/**/*.test.ts'], paid: ['test/evals/**/*.test.ts'], ids: [{ call: 'runEval', property: 'name' }] },
            maps: {
              touchfiles: { file: 'test/helpers/touchfiles.ts', export: 'E2E_TOUCHFILES' },
              tiers: { file: 'test/helpers/touchfiles.ts', export: 'E2E_TIERS' },
              globals: { file: 'test/helpers/touchfiles.ts', export: 'GLOBAL_TOUCHFILES', require: ['test/helpers/run.ts'] },
            },
          },
          null,
          2,
        ),
      );
      write(dir, 'test/helpers/run.ts', 'export function runEval(options: { name: string }) {\n  return options.name;\n}\n');
      write(dir, 'test/helpers/cases.ts', `export const CASES = [\n${ids.map((id) => `  '${id}',`).join('\n')}\n];\n`);
      write(dir, 'test/evals/cases.test.ts', "import { CASES } from '../helpers/cases.js';\nimport { runEval } from '../helpers/run.js';\nfor (const name of CASES) runEval({ name });\n");
      for (let i = 0; i < 100; i++) write(dir, `src/area-${i}/index.ts`, `export const area${i} = ${i};\n`);
      const touchfiles = ids.map((id, i) => `  '${id}': ['test/evals/cases.test.ts', 'src/area-${i % 100}/**'],`).join('\n');
      const tiers = ids.map((id, i) => `  '${id}': '${i % 10 === 0 ? 'gate' : 'periodic'}',`).join('\n');
      write(
        dir,
        'test/helpers/touchfiles.ts',
        `export const E2E_TOUCHFILES = {\n${touchfiles}\n};\n\nexport const E2E_TIERS = {\n${tiers}\n};\n\nexport const GLOBAL_TOUCHFILES = ['test/helpers/touchfiles.ts', 'test/helpers/run.ts', 'test/helpers/cases.ts'];\n`,
      );
    },
    expect: { exit: 0, findings: [] },
  },
  'removed-tokens': {
    label: '50,000 removed tokens over 40 guides of 2,000 lines',
    generate(dir) {
      const removed = Array.from({ length: 50_000 }, (_, i) => ({ id: `retired-${i}`, tokens: [`RETIRED_FLAG_${i}`], why: 'The flag is gone.' }));
      write(dir, 'tripwire.config.json', JSON.stringify({ removed }));
      for (let i = 0; i < 40; i++) {
        write(dir, `docs/guide-${i}.md`, `# Guide\n\n${'Run the suite before you merge.\n'.repeat(2000)}Set RETIRED_FLAG_${i * 1250} first.\n`);
      }
    },
    expect: { exit: 0, findings: Array.from({ length: 40 }, (_, i) => `no-dangling-references/removedToken docs/guide-${i}.md`) },
  },
};

/** 67,500 test files of the synthetic harness come with their helpers, maps and skills: ~100,000 tracked files. */
const MANY_FILES_SIZE = 67_500;

CASES['many-files'] = {
  label: 'a 100,000-file repository (the synthetic harness of bench/generate.mjs)',
  prepare(dir) {
    const meta = generate({ size: MANY_FILES_SIZE, out: dir, log: (line) => process.stderr.write(`${line} `) });
    this.label = `a ${meta.counts.files.toLocaleString('en')}-file repository (the synthetic harness of bench/generate.mjs at ${MANY_FILES_SIZE.toLocaleString('en')} test files)`;
    // The generator seeds paid calls into free tests; a correct check reports exactly those, as errors.
    this.expect = { exit: 1, findings: meta.expectedFindings.map((finding) => `${finding.ruleId} ${finding.file}`), byFile: true };
    return dir;
  },
};

const HELP = `Usage: node bench/adversarial.mjs [options]   (npm run bench:adversarial -- [options] builds first)

  --only IDS      comma-separated cases (default: all): ${Object.keys(CASES).join(', ')}
  --runs N        timed runs per case (default 3)
  --warmups N     untimed runs before them (default 1; 0 for a build that takes minutes)
  --bin FILE      the tripwire CLI to measure (default: dist/cli/bin.js of this checkout)
  --timeout S     kill a run after S seconds and report it as such (default 600)
  --out-dir DIR   where the repositories go (default bench/out/adversarial)
`;

function prepare(id, outDir) {
  const dir = path.join(outDir, id);
  if (CASES[id].prepare) return CASES[id].prepare(dir);
  const marker = path.join(outDir, `${id}.generated`);
  if (existsSync(marker) && readFileSync(marker, 'utf8') === String(GENERATOR)) return dir;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  initRepository(dir);
  CASES[id].generate(dir);
  commitAll(dir, `adversarial ${id}`, DATE);
  writeFileSync(marker, String(GENERATOR));
  return dir;
}

/** Null when the run's exit code and findings are the expected ones, else what differs. */
function validate(run, expected) {
  let report;
  try {
    report = JSON.parse(run.stdout);
  } catch {
    return `exit ${run.exitCode}, no JSON report: ${(run.stderr ?? '').trim().split('\n').slice(-3).join(' | ')}`;
  }
  if (run.exitCode !== expected.exit) return `exit ${run.exitCode}, expected ${expected.exit}`;
  const got = report.findings.map((f) => (expected.byFile ? `${f.ruleId} ${f.file}` : `${f.ruleId}/${f.messageId} ${f.file}`)).sort();
  const want = [...expected.findings].sort();
  if (JSON.stringify(got) !== JSON.stringify(want)) return `findings ${JSON.stringify(got.slice(0, 4))}${got.length > 4 ? ` (+${got.length - 4})` : ''}, expected ${JSON.stringify(want.slice(0, 4))}`;
  return null;
}

function fmt(ms) {
  return ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${(ms / 1000).toFixed(2)} s`;
}

function main() {
  const { values } = parseArgs({
    options: {
      only: { type: 'string' },
      runs: { type: 'string', default: '3' },
      warmups: { type: 'string', default: '1' },
      bin: { type: 'string', default: path.join(ROOT, 'dist', 'cli', 'bin.js') },
      timeout: { type: 'string', default: '600' },
      'out-dir': { type: 'string', default: path.join(BENCH, 'out', 'adversarial') },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const ids = values.only ? values.only.split(',') : Object.keys(CASES);
  for (const id of ids) if (!CASES[id]) throw new Error(`unknown case '${id}' (known: ${Object.keys(CASES).join(', ')})`);
  const runs = Number(values.runs);
  const warmups = Number(values.warmups);
  const timeoutMs = Number(values.timeout) * 1000;
  const bin = path.resolve(values.bin);
  if (!existsSync(bin)) throw new Error(`${bin} does not exist: run npm run build first`);
  mkdirSync(values['out-dir'], { recursive: true });

  const rows = [];
  for (const id of ids) {
    process.stderr.write(`${id}: generating… `);
    const dir = prepare(id, values['out-dir']);
    process.stderr.write('measuring');
    const argv = [process.execPath, bin, 'check', '--no-cache', '--format', 'json'];
    const wall = [];
    const cpu = [];
    const rss = [];
    let killed = null;
    let mismatch = null;
    for (let i = -warmups; i < runs && killed === null; i++) {
      const run = runOnce({ argv, cwd: dir, timeoutMs });
      process.stderr.write('.');
      if (run.killed || run.signal) {
        killed = `killed after ${(run.wallMs / 1000).toFixed(0)} s`;
        continue;
      }
      // A build that gets the findings wrong is still timed (an older build, for a before column), and says so.
      mismatch ??= validate(run, CASES[id].expect);
      if (i < 0) continue;
      wall.push(run.wallMs);
      if (run.cpuMs !== null) cpu.push(run.cpuMs);
      if (run.rssKiB !== null) rss.push(run.rssKiB);
    }
    process.stderr.write(killed === null && mismatch === null ? ' ok\n' : ` ${killed ?? mismatch}\n`);
    const timed = wall.length > 0 ? `${fmt(median(wall))} (${fmt(Math.min(...wall))}) · cpu ${cpu.length > 0 ? fmt(median(cpu)) : '–'} · ${rss.length > 0 ? `${Math.round(Math.max(...rss) / 1024)} MiB` : '–'}` : '';
    const cell = [timed, killed, mismatch === null ? null : `(${mismatch})`].filter(Boolean).join(' ');
    rows.push(`| ${CASES[id].label} | ${cell} |`);
  }
  process.stdout.write(`Peak RSS and CPU: ${RSS_SOURCE}. Runs: ${runs} after ${warmups} warm-up(s); ${bin}.\n\n| case | check --no-cache: wall median (min) · CPU median · peak RSS |\n|---|---|\n${rows.join('\n')}\n`);
  return 0;
}

process.exitCode = main();
