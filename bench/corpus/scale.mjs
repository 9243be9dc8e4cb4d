#!/usr/bin/env node
// Scale figures on the corpus's large monorepos (issue 19 item 5): for each
// repository, the pinned commit is extracted into a temporary repository with
// its committed config, and `check` is measured cold (an empty cache), warm
// (nothing changed), after a one-line edit to the shared test helper the most
// test files import (the work tree, then `--staged` with the edit staged), each
// with wall time, CPU time and peak RSS (GNU time). The runs repeat --runs
// times (median; a cold run always starts from an empty cache). Nothing here
// is a test: CI has no network, and the repositories are never copied into
// the project.
//
//   npm run build && node bench/corpus/scale.mjs --mirrors /work/.mirror
//   node bench/corpus/scale.mjs --mirrors DIR --only vercel/ai --runs 1

import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { median, runOnce } from '../lib/measure.mjs';

const CORPUS = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(CORPUS, '..', '..');
const BIN = path.join(ROOT, 'dist', 'cli', 'bin.js');
const DEFAULT_REPOS = ['vercel/ai', 'langchain-ai/langchainjs'];
const GIB = 1024 * 1024;

const HELP = `Usage: node bench/corpus/scale.mjs --mirrors DIR [--only REPOS] [--runs N]   (build first)
  --mirrors DIR   directory holding the repositories' git directories (as for run.mjs)
  --only REPOS    comma-separated owner/name list (default: ${DEFAULT_REPOS.join(', ')})
  --runs N        runs per figure, median reported (default 3)
`;

const { values } = parseArgs({ options: { mirrors: { type: 'string' }, only: { type: 'string' }, runs: { type: 'string', default: '3' }, help: { type: 'boolean', default: false } } });
if (values.help || !values.mirrors) {
  process.stdout.write(HELP);
  process.exit(values.help ? 0 : 2);
}
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) {
  process.stderr.write('--runs needs a positive integer\n');
  process.exit(2);
}
const manifest = JSON.parse(readFileSync(path.join(CORPUS, 'manifest.json'), 'utf8'));
const wanted = values.only ? values.only.split(',').map((s) => s.trim()) : DEFAULT_REPOS;
const entries = wanted.map((repo) => manifest.repositories.find((entry) => entry.repo === repo) ?? (process.stderr.write(`unknown repository ${repo}\n`), process.exit(2)));

const git = (cwd, args) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 28 });

function gitDirOf(repo) {
  const [owner, name] = repo.split('/');
  return [path.join(values.mirrors, `${owner}+${name}`, 'repo'), path.join(values.mirrors, `${owner}+${name}`), path.join(values.mirrors, `${name}.git`)].find((dir) => existsSync(dir)) ?? null;
}

const TEST_FILE = /\.(?:test|spec)\.[cm]?[jt]sx?$/;
const RELATIVE_IMPORT = /(?:from\s+|import\s*\(\s*|require\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g;
const EXTENSIONS = ['', '.ts', '.tsx', '.mts', '.js', '.mjs', '/index.ts', '/index.js'];

/** The non-test file the most test files import by a relative path: the shared helper an edit to which reaches the most tests. */
function sharedHelper(dir, files) {
  const known = new Set(files);
  const importers = new Map();
  for (const file of files.filter((f) => TEST_FILE.test(f))) {
    const text = readFileSync(path.join(dir, file), 'utf8');
    for (const match of text.matchAll(RELATIVE_IMPORT)) {
      const base = path.posix.normalize(path.posix.join(path.posix.dirname(file), match[1])).replace(/\.js$/, '');
      const target = EXTENSIONS.map((ext) => `${base}${ext}`).find((candidate) => known.has(candidate) && !TEST_FILE.test(candidate));
      if (target) importers.set(target, (importers.get(target) ?? 0) + 1);
    }
  }
  const [best] = [...importers].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  return best ? { file: best[0], importers: best[1] } : null;
}

function measure(label, times, argv, cwd, before = () => {}) {
  const samples = [];
  for (let i = 0; i < times; i += 1) {
    before(i);
    const run = runOnce({ argv: [process.execPath, BIN, ...argv], cwd });
    if (run.exitCode !== 0 && run.exitCode !== 1) throw new Error(`${label}: exit ${run.exitCode}\n${run.stderr}`);
    samples.push(run);
  }
  const figure = { label, wallMs: Math.round(median(samples.map((s) => s.wallMs))), cpuMs: median(samples.map((s) => s.cpuMs)), peakRssMiB: Math.round(Math.max(...samples.map((s) => s.rssKiB)) / 1024), overTwoGiB: samples.some((s) => s.rssKiB > 2 * GIB) };
  process.stdout.write(`  ${label.padEnd(34)} wall ${(figure.wallMs / 1000).toFixed(2).padStart(6)} s  cpu ${(figure.cpuMs / 1000).toFixed(2).padStart(6)} s  peak ${String(figure.peakRssMiB).padStart(5)} MiB${figure.overTwoGiB ? '  OVER 2 GiB' : ''}\n`);
  return figure;
}

const rows = [];
for (const entry of entries) {
  const gitDir = gitDirOf(entry.repo);
  if (gitDir === null) {
    process.stderr.write(`${entry.repo}: no git directory under ${values.mirrors} (fetch github:${entry.repo})\n`);
    process.exit(2);
  }
  const work = mkdtempSync(path.join(os.tmpdir(), 'tripwire-scale-'));
  const dir = path.join(work, 'repo');
  const cache = path.join(work, 'cache');
  try {
    git(work, ['clone', '--quiet', '--shared', '--no-checkout', gitDir, dir]);
    git(dir, ['-c', 'advice.detachedHead=false', 'checkout', '--quiet', entry.commit]);
    writeFileSync(path.join(dir, 'tripwire.config.json'), readFileSync(path.join(CORPUS, entry.config), 'utf8'));
    const files = git(dir, ['ls-files', '-z']).split('\0').filter(Boolean);
    const helper = sharedHelper(dir, files);
    process.stdout.write(`${entry.repo} @ ${entry.commit.slice(0, 12)}: ${files.length} files; helper ${helper ? `${helper.file} (imported by ${helper.importers} test files)` : 'none found'}; load ${os.loadavg().map((n) => n.toFixed(1)).join(' ')}\n`);
    const check = ['check', '--format', 'json', '--no-baseline', '--cache-location', cache];
    const figures = [measure('cold (empty cache)', runs, check, dir, () => rmSync(cache, { recursive: true, force: true }))];
    figures.push(measure('warm (nothing changed)', runs, check, dir));
    if (helper) {
      const helperPath = path.join(dir, helper.file);
      const original = readFileSync(helperPath, 'utf8');
      // Each run sees a helper text it has not seen: a new line appended each time.
      figures.push(measure('one helper edit, work tree', runs, check, dir, (i) => appendFileSync(helperPath, `\n// tripwire scale edit ${i}\n`)));
      figures.push(
        measure('one helper edit, --staged', runs, [...check, '--staged'], dir, (i) => {
          appendFileSync(helperPath, `\n// tripwire scale staged edit ${i}\n`);
          git(dir, ['add', helper.file]);
        }),
      );
      writeFileSync(helperPath, original);
    }
    rows.push({ repo: entry.repo, commit: entry.commit, files: files.length, helper, figures });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
process.stdout.write(`\n${JSON.stringify({ date: new Date().toISOString(), node: process.version, cpus: os.cpus().length, runs, rows }, null, 2)}\n`);
if (rows.some((row) => row.figures.some((f) => f.overTwoGiB))) process.exit(1);
