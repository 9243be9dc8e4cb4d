#!/usr/bin/env node
// The precision benchmark (issue 12): tripwire on public harnesses it was not
// written for. For each repository of manifest.json it extracts the pinned
// commit from a local git directory into a temporary repository, writes the
// committed config there, runs `check --format json` twice (cold: an empty
// fact cache; warm: the same cache), and scores every finding against the
// committed triage file. No test depends on this: CI has no network, and the
// repositories are never copied into the project.
//
//   npm run corpus -- --mirrors /work/.mirror
//   npm run corpus -- --mirrors DIR --only kbitz/gstack-extend --update-triage
//
// DIR holds one git directory per repository, found as DIR/<owner>+<name>/repo,
// DIR/<owner>+<name>, DIR/<name>.git or DIR/<name> (what the search tool's
// `fetch github:<owner>/<name>` brings, or a `git clone --mirror`).

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { applyEdits, modify } from 'jsonc-parser';
import { runOnce } from '../lib/measure.mjs';

const CORPUS = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(CORPUS, '..', '..');
const BIN = path.join(ROOT, 'dist', 'src', 'cli', 'bin.js');

const HELP = `Usage: node bench/corpus/run.mjs --mirrors DIR [options]   (npm run corpus -- … builds first)

  --mirrors DIR      directory holding the repositories' git directories (required)
  --only REPOS       comma-separated owner/name list (default: every repository of manifest.json)
  --update-triage    rewrite each triage file: keep the verdicts of findings still reported, add
                     new findings with "verdict": null, drop the ones no longer reported
  --keep DIR         extract into DIR/<owner>+<name> and keep it (default: a temporary directory, removed)
  --json FILE        also write the per-repository figures and findings as JSON
  --preset strict    check with the strict preset (the heuristic kinds reported, as errors); the triage
                     files are kept with it, so that every kind's verdicts are recorded. The 95 % gate
                     applies to the default preset only.
`;

const { values } = parseArgs({
  options: {
    mirrors: { type: 'string' },
    only: { type: 'string' },
    'update-triage': { type: 'boolean', default: false },
    keep: { type: 'string' },
    json: { type: 'string' },
    preset: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});
if (values.help || !values.mirrors) {
  process.stdout.write(HELP);
  process.exit(values.help ? 0 : 2);
}

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

/** A fresh repository holding the pinned commit's tree, committed, with the corpus config beside it (untracked). */
function extract(entry, gitDir, into) {
  rmSync(into, { recursive: true, force: true });
  mkdirSync(path.dirname(into), { recursive: true });
  git(path.dirname(into), ['clone', '--quiet', '--shared', '--no-checkout', gitDir, into]);
  git(into, ['-c', 'advice.detachedHead=false', 'checkout', '--quiet', entry.commit]);
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
    const cacheDir = path.join(tmpRoot, `${slug(entry.repo)}-cache`);
    rmSync(cacheDir, { recursive: true, force: true });
    const cold = check(dir, cacheDir);
    const warm = check(dir, cacheDir);
    const findings = cold.report.findings;
    const triageFile = path.join(CORPUS, 'triage', `${slug(entry.repo)}.json`);
    const triage = readTriage(triageFile);
    const row = { repo: entry.repo, commit: entry.commit.slice(0, 12), files: cold.report.summary.files, ...score(findings, triage), coldMs: Math.round(cold.wallMs), warmMs: Math.round(warm.wallMs) };
    if (JSON.stringify(warm.report.findings) !== JSON.stringify(findings)) row.note = 'warm run reported different findings';
    if (values['update-triage']) row.triage = updateTriage(triageFile, entry, findings, triage);
    rows.push({ ...row, findings });
    if (!keepRoot) rmSync(dir, { recursive: true, force: true });
    process.stderr.write(`${entry.repo}: ${findings.length} findings, ${row.coldMs} ms cold\n`);
  }
} finally {
  rmSync(tmpRoot, { recursive: true, force: true });
}

const pct = (p) => (p === null ? '–' : `${(p * 100).toFixed(1)} %`);
const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;
process.stdout.write('| repository | commit | files | errors | warnings | true | false | untriaged | precision (errors) | duplicates | cold | warm |\n');
process.stdout.write('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n');
for (const r of rows) {
  process.stdout.write(`| ${r.repo} | ${r.commit} | ${r.files} | ${r.errors} | ${r.warnings} | ${r.true} | ${r.false} | ${r.untriaged} | ${pct(r.precision)} | ${r.duplicates} | ${secs(r.coldMs)} | ${secs(r.warmMs)} |\n`);
  if (r.note) process.stdout.write(`\n${r.repo}: ${r.note}\n`);
  if (r.triage) process.stderr.write(`${r.repo}: triage kept ${r.triage.kept}, added ${r.triage.added}, dropped ${r.triage.dropped}\n`);
}
if (values.json) writeFileSync(values.json, `${JSON.stringify(rows, null, 2)}\n`);
const gated = values.preset === undefined || values.preset === 'recommended';
const failing = rows.filter((r) => r.untriaged > 0 || r.duplicates > 0 || (gated && r.precision !== null && r.precision < 0.95));
if (failing.length > 0 && !process.exitCode) process.exitCode = 1;
