#!/usr/bin/env node
// The precision benchmark (issue 12): tripwire on public harnesses it was not
// written for. For each repository of manifest.json it extracts the pinned
// commit from a local git directory into a temporary repository, writes the
// committed config there, runs `check --format json` twice (cold: an empty
// fact cache; warm: the same cache), and scores every finding against the
// committed triage file. Before the config is written it also runs
// `init --dry-run` in the same checkout and compares what init inferred with
// the committed config (init-compare.mjs). No test depends on this: CI has no
// network, and the repositories are never copied into the project.
//
//   npm run corpus -- --mirrors /work/.mirror
//   npm run corpus -- --mirrors DIR --only kbitz/gstack-extend --update-triage
//   npm run corpus -- --mirrors DIR --init-only --update-init
//
// DIR holds one git directory per repository, found as DIR/<owner>+<name>/repo,
// DIR/<owner>+<name>, DIR/<name>.git or DIR/<name> (what the search tool's
// `fetch github:<owner>/<name>` brings, or a `git clone --mirror`).

import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { applyEdits, modify } from 'jsonc-parser';
import { runOnce } from '../lib/measure.mjs';
import { compareInit, configFromInitOutput, INIT_KEYS, parseJsonc, verdictText } from './init-compare.mjs';

const CORPUS = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(CORPUS, '..', '..');
const BIN = path.join(ROOT, 'dist', 'cli', 'bin.js');

const HELP = `Usage: node bench/corpus/run.mjs --mirrors DIR [options]   (npm run corpus -- … builds first)

  --mirrors DIR      directory holding the repositories' git directories (required)
  --only REPOS       comma-separated owner/name list (default: every repository of manifest.json)
  --update-triage    rewrite each triage file: keep the verdicts of findings still reported, add
                     new findings with "verdict": null, drop the ones no longer reported
  --no-init          skip the init comparison
  --init-only        only the init comparison: no check, no triage
  --update-init      rewrite bench/corpus/init/<owner>+<name>.json (the config init inferred and how it
                     compares with the committed one) and point the manifest entry's "init" field at it;
                     without it the comparison is printed, and a change from the stored verdict is named
  --keep DIR         extract into DIR/<owner>+<name> and keep it (default: a temporary directory, removed)
  --json FILE        also write { rows, summary } as JSON: per repository the figures, the findings and
                     the init comparison; summary.initCorrect counts the repositories init got right
  --preset strict    check with the strict preset (the heuristic kinds reported, as errors); the triage
                     files are kept with it, so that every kind's verdicts are recorded. The 95 % gate
                     applies to the default preset only.
`;

const { values } = parseArgs({
  options: {
    mirrors: { type: 'string' },
    only: { type: 'string' },
    'update-triage': { type: 'boolean', default: false },
    'no-init': { type: 'boolean', default: false },
    'init-only': { type: 'boolean', default: false },
    'update-init': { type: 'boolean', default: false },
    keep: { type: 'string' },
    json: { type: 'string' },
    preset: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});
if (values['no-init'] && (values['init-only'] || values['update-init'])) {
  process.stderr.write('--no-init contradicts --init-only and --update-init\n');
  process.exit(2);
}
if (values.help || !values.mirrors) {
  process.stdout.write(HELP);
  process.exit(values.help ? 0 : 2);
}
const runInit = !values['no-init'];
const runCheck = !values['init-only'];

const manifest = JSON.parse(readFileSync(path.join(CORPUS, 'manifest.json'), 'utf8'));
const only = values.only ? new Set(values.only.split(',').map((s) => s.trim())) : null;
const entries = manifest.repositories.filter((entry) => !only || only.has(entry.repo));
if (only && entries.length !== only.size) {
  process.stderr.write(`unknown repositories: ${[...only].filter((r) => !entries.some((e) => e.repo === r)).join(', ')}\n`);
  process.exit(2);
}

const slug = (repo) => repo.replace('/', '+');

function gitDirOf(repo) {
  const [owner, name] = repo.split('/');
  const candidates = [path.join(values.mirrors, `${owner}+${name}`, 'repo'), path.join(values.mirrors, `${owner}+${name}`), path.join(values.mirrors, `${name}.git`), path.join(values.mirrors, name)];
  return candidates.find((dir) => existsSync(dir)) ?? null;
}

function git(cwd, args) {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 28 });
}

/** A fresh repository holding the pinned commit's tree, committed. */
function extract(entry, gitDir, into) {
  rmSync(into, { recursive: true, force: true });
  mkdirSync(path.dirname(into), { recursive: true });
  git(path.dirname(into), ['clone', '--quiet', '--shared', '--no-checkout', gitDir, into]);
  git(into, ['-c', 'advice.detachedHead=false', 'checkout', '--quiet', entry.commit]);
}

/** The corpus config beside the checkout (untracked); init refuses to run once it is there. */
function writeConfig(entry, into) {
  const config = readFileSync(path.join(CORPUS, entry.config), 'utf8');
  const edits = values.preset ? modify(config, ['preset'], values.preset, { formattingOptions: { insertSpaces: true, tabSize: 2 } }) : [];
  writeFileSync(path.join(into, 'tripwire.config.json'), applyEdits(config, edits));
}

const keyOf = (f) => `${f.ruleId}\u0000${f.messageId ?? ''}\u0000${f.file}\u0000${f.line}`;

function readTriage(file) {
  if (!existsSync(file)) return [];
  return JSON.parse(readFileSync(file, 'utf8')).findings;
}

function score(findings, triage) {
  const verdicts = new Map(triage.map((t) => [keyOf(t), t.verdict]));
  const row = { errors: 0, warnings: 0, true: 0, false: 0, untriaged: 0, trueErrors: 0, falseErrors: 0, duplicates: 0 };
  const seen = new Set();
  for (const f of findings) {
    row[f.severity === 'error' ? 'errors' : 'warnings']++;
    const at = `${f.ruleId}\u0000${f.messageId ?? ''}\u0000${f.file}\u0000${f.line}\u0000${f.column}`;
    if (seen.has(at)) row.duplicates++;
    seen.add(at);
    const verdict = verdicts.get(keyOf(f));
    if (verdict === true) row.true++;
    else if (verdict === false) row.false++;
    else row.untriaged++;
    if (f.severity === 'error' && verdict === true) row.trueErrors++;
    if (f.severity === 'error' && verdict === false) row.falseErrors++;
  }
  const judged = row.trueErrors + row.falseErrors;
  row.precision = judged === 0 ? null : row.trueErrors / judged;
  return row;
}

function updateTriage(file, entry, findings, triage) {
  const old = new Map(triage.map((t) => [keyOf(t), t]));
  const next = new Map();
  for (const f of findings) {
    const key = keyOf(f);
    if (next.has(key)) continue;
    const before = old.get(key);
    next.set(key, {
      ruleId: f.ruleId,
      messageId: f.messageId ?? null,
      file: f.file,
      line: f.line,
      severity: f.severity,
      message: f.message,
      verdict: before?.verdict ?? null,
      why: before?.why ?? '',
    });
  }
  const findingsOut = [...next.values()].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || (a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : 0)));
  writeFileSync(file, `${JSON.stringify({ repo: entry.repo, commit: entry.commit, findings: findingsOut }, null, 2)}\n`);
  return { kept: findingsOut.filter((f) => f.verdict !== null).length, added: findingsOut.filter((f) => f.verdict === null).length, dropped: [...old.keys()].filter((k) => !next.has(k)).length };
}

/** What init infers in the bare checkout, compared with the committed config. */
function initComparison(entry, dir) {
  const started = performance.now();
  const child = spawnSync(process.execPath, [BIN, 'init', '--dry-run', '--no-cache', '--cwd', dir], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, maxBuffer: 1 << 28 });
  const ms = Math.round(performance.now() - started);
  try {
    if (child.error) throw child.error;
    if (child.status !== 0) throw new Error(`init exited ${child.status ?? child.signal}: ${child.stderr.slice(0, 2000)}`);
    const inferred = configFromInitOutput(child.stdout);
    const corrected = parseJsonc(readFileSync(path.join(CORPUS, entry.config), 'utf8'), entry.config);
    const files = git(dir, ['ls-files', '-z']).split('\0').filter((file) => file !== '');
    return { inferred, ...compareInit({ inferred, corrected, files, root: dir }), ms };
  } catch (error) {
    const correct = { ...Object.fromEntries(INIT_KEYS.map((key) => [key, false])), all: false };
    return { inferred: null, error: error instanceof Error ? error.message : String(error), correct, diff: {}, ms };
  }
}

function initRecord(entry, comparison) {
  const { inferred, correct, diff, error } = comparison;
  return { repo: entry.repo, commit: entry.commit, ...(error === undefined ? {} : { error }), inferred, correct, diff };
}

/** How the fresh comparison departs from the stored one: null when there is no stored file. */
function againstStored(file, record) {
  if (!existsSync(file)) return null;
  const stored = JSON.parse(readFileSync(file, 'utf8'));
  const changed = [...INIT_KEYS, 'all'].filter((key) => stored.correct?.[key] !== record.correct[key]);
  return {
    verdictChanged: changed.length > 0,
    changedKeys: changed,
    storedVerdict: stored.correct ? verdictText(stored.correct) : null,
    inferredChanged: JSON.stringify(stored.inferred) !== JSON.stringify(record.inferred),
    diffChanged: JSON.stringify(stored.diff) !== JSON.stringify(record.diff),
  };
}

function check(dir, cacheDir) {
  const run = runOnce({ argv: [process.execPath, BIN, 'check', '--format', 'json', '--no-baseline', '--cache-location', cacheDir], cwd: dir });
  if (run.exitCode === 2 || run.signal) throw new Error(`check exited ${run.exitCode ?? run.signal} in ${dir}:\n${run.stderr.slice(0, 2000)}`);
  return { ...run, report: JSON.parse(run.stdout) };
}

const rows = [];
const keepRoot = values.keep ? path.resolve(values.keep) : null;
const tmpRoot = mkdtempSync(path.join(os.tmpdir(), 'tripwire-corpus-'));
try {
  for (const entry of entries) {
    const gitDir = gitDirOf(entry.repo);
    if (!gitDir) {
      process.stderr.write(`${entry.repo}: no git directory under ${values.mirrors} (fetch github:${entry.repo})\n`);
      process.exitCode = 2;
      continue;
    }
    const dir = path.join(keepRoot ?? tmpRoot, slug(entry.repo));
    extract(entry, gitDir, dir);
    const row = { repo: entry.repo, commit: entry.commit.slice(0, 12) };
    if (runInit) {
      const comparison = initComparison(entry, dir);
      const record = initRecord(entry, comparison);
      const initFile = path.join(CORPUS, 'init', `${slug(entry.repo)}.json`);
      const stored = againstStored(initFile, record);
      if (values['update-init']) {
        mkdirSync(path.dirname(initFile), { recursive: true });
        writeFileSync(initFile, `${JSON.stringify(record, null, 2)}\n`);
        entry.init = path.relative(CORPUS, initFile).split(path.sep).join('/');
      }
      row.init = { correct: record.correct, diff: record.diff, ...(record.error === undefined ? {} : { error: record.error }), stored, ms: comparison.ms };
      process.stderr.write(`${entry.repo}: init correct: ${verdictText(record.correct)}, ${comparison.ms} ms\n`);
    }
    writeConfig(entry, dir);
    if (runCheck) {
      const cacheDir = path.join(tmpRoot, `${slug(entry.repo)}-cache`);
      rmSync(cacheDir, { recursive: true, force: true });
      const cold = check(dir, cacheDir);
      const warm = check(dir, cacheDir);
      const findings = cold.report.findings;
      const triageFile = path.join(CORPUS, 'triage', `${slug(entry.repo)}.json`);
      const triage = readTriage(triageFile);
      Object.assign(row, { files: cold.report.summary.files, ...score(findings, triage), coldMs: Math.round(cold.wallMs), warmMs: Math.round(warm.wallMs) });
      if (JSON.stringify(warm.report.findings) !== JSON.stringify(findings)) row.note = 'warm run reported different findings';
      if (values['update-triage']) row.triage = updateTriage(triageFile, entry, findings, triage);
      row.findings = findings;
      process.stderr.write(`${entry.repo}: ${findings.length} findings, ${row.coldMs} ms cold\n`);
    }
    rows.push(row);
    if (!keepRoot) rmSync(dir, { recursive: true, force: true });
  }
} finally {
  rmSync(tmpRoot, { recursive: true, force: true });
}
if (runInit && values['update-init']) writeFileSync(path.join(CORPUS, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);

const pct = (p) => (p === null ? '–' : `${(p * 100).toFixed(1)} %`);
const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;
const columns = [
  ['repository', '---', (r) => r.repo],
  ['commit', '---', (r) => r.commit],
  ...(runCheck
    ? [
        ['files', '---:', (r) => r.files],
        ['errors', '---:', (r) => r.errors],
        ['warnings', '---:', (r) => r.warnings],
        ['true', '---:', (r) => r.true],
        ['false', '---:', (r) => r.false],
        ['untriaged', '---:', (r) => r.untriaged],
        ['precision (errors)', '---:', (r) => pct(r.precision)],
        ['duplicates', '---:', (r) => r.duplicates],
        ['cold', '---:', (r) => secs(r.coldMs)],
        ['warm', '---:', (r) => secs(r.warmMs)],
      ]
    : []),
  ...(runInit ? [['init correct', '---', (r) => (r.init.error === undefined ? verdictText(r.init.correct) : 'error')]] : []),
];
process.stdout.write(`| ${columns.map(([name]) => name).join(' | ')} |\n`);
process.stdout.write(`|${columns.map(([, align]) => align).join('|')}|\n`);
for (const r of rows) process.stdout.write(`| ${columns.map(([, , cell]) => cell(r)).join(' | ')} |\n`);
for (const r of rows) {
  if (r.note) process.stdout.write(`\n${r.repo}: ${r.note}\n`);
  if (r.triage) process.stderr.write(`${r.repo}: triage kept ${r.triage.kept}, added ${r.triage.added}, dropped ${r.triage.dropped}\n`);
}

const list = (examples, count) => `${examples.join(', ')}${count > examples.length ? ', …' : ''}`;
function describeDiff(key, diff) {
  if (key === 'maps') return Object.entries(diff).map(([part, { inferred, corrected }]) => `maps.${part}: inferred ${JSON.stringify(inferred)}, corrected ${JSON.stringify(corrected)}`);
  const show = (x) => (typeof x === 'string' ? x : JSON.stringify(x));
  const sides = [
    diff.onlyInferred.count > 0 ? `only inferred ${diff.onlyInferred.count} (${list(diff.onlyInferred.examples.map(show), diff.onlyInferred.count)})` : null,
    diff.onlyCorrected.count > 0 ? `only corrected ${diff.onlyCorrected.count} (${list(diff.onlyCorrected.examples.map(show), diff.onlyCorrected.count)})` : null,
  ].filter((side) => side !== null);
  const what = key === 'ids' ? 'shapes' : key === 'paid' ? 'paid test files' : 'test files';
  return [`${key}: ${what} inferred ${diff.inferred}, corrected ${diff.corrected}; ${sides.join('; ')}`];
}
if (runInit) {
  process.stdout.write('\n');
  for (const r of rows) {
    const lines = r.init.error !== undefined ? [`error: ${r.init.error}`] : INIT_KEYS.filter((key) => r.init.diff[key]).flatMap((key) => describeDiff(key, r.init.diff[key]));
    const { stored } = r.init;
    const against =
      stored === null
        ? 'no stored comparison'
        : stored.verdictChanged
          ? `verdict changed from the stored one (${stored.storedVerdict}; ${stored.changedKeys.join(', ')})`
          : `verdict as stored${stored.inferredChanged ? ', but init inferred a different config' : stored.diffChanged ? ', but the diff changed' : ''}`;
    process.stdout.write(`${r.repo}: init correct ${r.init.error === undefined ? verdictText(r.init.correct) : 'error'}; ${values['update-init'] ? `written (${against})` : against}\n`);
    for (const line of lines) process.stdout.write(`  ${line}\n`);
  }
  process.stdout.write(`\ninit correct: ${rows.filter((r) => r.init.correct.all).length} of ${rows.length}\n`);
}

if (values.json) {
  const summary = { repositories: rows.length, ...(runInit ? { initCorrect: rows.filter((r) => r.init.correct.all).length } : {}) };
  writeFileSync(values.json, `${JSON.stringify({ rows, summary }, null, 2)}\n`);
}
const gated = values.preset === undefined || values.preset === 'recommended';
const failing = rows.filter((r) => runCheck && (r.untriaged > 0 || r.duplicates > 0 || (gated && r.precision !== null && r.precision < 0.95)));
if ((failing.length > 0 || rows.some((r) => r.init?.error !== undefined)) && !process.exitCode) process.exitCode = 1;
