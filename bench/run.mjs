#!/usr/bin/env node
// The benchmark runner (issue 8). For each size it generates (or reuses) a
// synthetic harness under bench/out/<size>, then measures wall time (median
// of --runs runs after one warm-up) and peak RSS of every surface, checks
// each command's exit code and output, prints a Markdown table with the
// ratios and the targets, and writes bench/out/results-<date>.json.
//
//   npm run bench -- --sizes 1k,10k          # builds first
//   node bench/run.mjs --sizes 50k --only floor,check-cold
//
// Timings live here and in the README, never in test assertions.

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { generate } from './generate.mjs';
import { median, RSS_SOURCE, runOnce } from './lib/measure.mjs';
import { parseSize, sizeLabel } from './lib/plan.mjs';
import { editHelper, editText, git, isClean, restoreHelper, stageHelperEdit } from './lib/repo.mjs';

const BENCH = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.dirname(BENCH);
const ESLINT = path.join(ROOT, 'node_modules', 'eslint', 'bin', 'eslint.js');
// Set by snapshotBuild: the benchmark runs a copy of dist/, so that a rebuild
// by someone else on the machine cannot change the code under measurement.
let BIN = path.join(ROOT, 'dist', 'cli', 'bin.js');
let PLUGIN = path.join(ROOT, 'dist', 'src', 'index.js');

/** Copies the build (and what it reads at run time) to DIR; dependencies still resolve from ROOT/node_modules. */
function snapshotBuild(dir) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.join(dir, 'rules'), { recursive: true });
  cpSync(path.join(ROOT, 'dist'), path.join(dir, 'dist'), { recursive: true, preserveTimestamps: true });
  for (const file of ['package.json', 'schema.json']) if (existsSync(path.join(ROOT, file))) cpSync(path.join(ROOT, file), path.join(dir, file));
  for (const file of readdirSync(path.join(ROOT, 'rules'))) if (file.endsWith('.md')) cpSync(path.join(ROOT, 'rules', file), path.join(dir, 'rules', file));
  BIN = path.join(dir, 'dist', 'cli', 'bin.js');
  PLUGIN = path.join(dir, 'dist', 'src', 'index.js');
}

const HELP = `Usage: node bench/run.mjs [options]   (npm run bench -- [options] builds first)

  --sizes LIST    comma-separated sizes in test files (default 1k): 1k,10k,50k
  --runs N        timed runs per command after one warm-up (default 5, at least 5 for the README)
  --eslint-runs N timed runs of the ESLint commands (default: --runs)
  --warmups N     untimed runs before the timed ones (default 1)
  --seed N        generator seed (default 1)
  --only IDS      measure only these commands (comma-separated ids, below)
  --skip IDS      measure everything but these
  --out-dir DIR   where repositories and results go (default bench/out)
  --keep-build    measure the snapshot of dist/ the previous run took (bench/out/tripwire-build),
                  so that sizes measured in separate runs measure the same code

Command ids: ${[
  'floor', 'check-cold', 'check-warm', 'check-edit', 'check-text-edit', 'check-base', 'check-staged', 'eslint-parser', 'eslint-recommended',
  'eslint-parser-cache', 'eslint-recommended-cache', 'version', 'empty',
].join(', ')}
`;

// ------------------------------------------------------------------ validators

/** Where the ESLint surface keeps tripwire's caches for `root` (it takes no --cache-location): cacheDirectory in src/facts/cache.ts. */
function defaultFactCache(root) {
  if (existsSync(path.join(root, 'node_modules'))) return path.join(root, 'node_modules', '.cache', 'tripwire');
  return path.join(os.homedir(), '.cache', 'tripwire', createHash('sha1').update(path.resolve(root)).digest('hex').slice(0, 12));
}

const tail = (text, lines = 6) => (text ?? '').trim().split('\n').slice(-lines).join('\n');
const key = (finding) => `${finding.ruleId} ${finding.file}`;

/** `tripwire check --format json`: the exit code agrees with the findings, and the findings are the seeded ones. */
function checkValidator(expected, mode) {
  const want = new Set(expected.map(key));
  return (run) => {
    if (run.exitCode === 2 && /unknown option/i.test(run.stderr)) return { ok: false, unsupported: tail(run.stderr, 2).split('\n')[0] };
    let report;
    try {
      report = JSON.parse(run.stdout);
    } catch {
      return { ok: false, problem: `exit ${run.exitCode}, stdout is not a JSON report: ${tail(run.stderr)}` };
    }
    const errors = report.findings.filter((finding) => finding.severity === 'error').length;
    const exitWanted = errors > 0 ? 1 : 0;
    if (run.exitCode !== exitWanted) return { ok: false, problem: `exit ${run.exitCode} with ${errors} error findings (expected exit ${exitWanted}): ${tail(run.stderr)}` };
    const got = new Set(report.findings.map(key));
    const unexpected = [...got].filter((k) => !want.has(k));
    const missing = mode === 'exact' ? [...want].filter((k) => !got.has(k)) : [];
    return { ok: true, findings: report.findings.length, files: report.summary?.files, unexpected, missing };
  };
}

function exitValidator(code, stdoutPattern) {
  return (run) => {
    if (run.exitCode !== code) return { ok: false, problem: `exit ${run.exitCode}, expected ${code}: ${tail(run.stderr)}` };
    if (stdoutPattern && !stdoutPattern.test(run.stdout)) return { ok: false, problem: `unexpected output: ${tail(run.stdout, 2)}` };
    return { ok: true };
  };
}

/** `eslint --format json`: no fatal (parse) errors, and exit 1 exactly when there are errors. */
function eslintValidator({ allowMessages, expected = [] }) {
  const want = new Set(expected.map((finding) => `tripwire/${key(finding)}`));
  return (run, cwd) => {
    let results;
    try {
      results = JSON.parse(run.stdout);
    } catch {
      return { ok: false, problem: `exit ${run.exitCode}, stdout is not an ESLint JSON report: ${tail(run.stderr)}` };
    }
    const messages = results.flatMap((result) => result.messages);
    const fatal = messages.filter((message) => message.fatal);
    if (fatal.length > 0) return { ok: false, problem: `${fatal.length} fatal messages, first: ${fatal[0].message}` };
    const errors = results.reduce((sum, result) => sum + result.errorCount, 0);
    if (run.exitCode !== (errors > 0 ? 1 : 0)) return { ok: false, problem: `exit ${run.exitCode} with ${errors} errors: ${tail(run.stderr)}` };
    if (!allowMessages && messages.length > 0) return { ok: false, problem: `${messages.length} messages from a config with no rules: ${messages[0].message}` };
    const rules = {};
    for (const message of messages) rules[message.ruleId ?? 'null'] = (rules[message.ruleId ?? 'null'] ?? 0) + 1;
    const got = new Set(
      results.flatMap((result) =>
        result.messages.filter((message) => message.ruleId?.startsWith('tripwire/')).map((message) => `${message.ruleId} ${path.relative(cwd, result.filePath).split(path.sep).join('/')}`),
      ),
    );
    const unexpected = [...got].filter((k) => !want.has(k));
    const missing = allowMessages ? [...want].filter((k) => !got.has(k)) : [];
    return { ok: true, files: results.length, findings: messages.length, byRule: rules, unexpected, missing };
  };
}

// --------------------------------------------------------------- measurement

/**
 * Measures specs interleaved (a warm-up of each, then run i of each in turn),
 * so that load from other processes on the machine hits them alike and their
 * ratio is steadier than their absolute times.
 */
function measureGroup(specs, runs, warmups, log) {
  const results = new Map();
  for (const spec of specs) {
    const na = spec.available?.();
    results.set(spec.id, {
      id: spec.id,
      label: spec.label,
      command: spec.argv.map((arg) => path.relative(ROOT, arg).startsWith('..') || !path.isAbsolute(arg) ? arg : path.relative(ROOT, arg)).join(' '),
      status: na ? 'n/a' : 'pending',
      note: na ?? null,
      runsMs: [],
      cpuMs: [],
      rssKiB: [],
      typescriptLoadedRuns: null,
    });
  }
  const active = () => specs.filter((spec) => results.get(spec.id).status === 'pending');
  const once = (spec, i) => {
    const result = results.get(spec.id);
    spec.before?.(i);
    let run;
    try {
      run = runOnce({ argv: spec.argv, cwd: spec.cwd, env: spec.env, probe: spec.probe });
    } finally {
      spec.after?.(i);
    }
    const verdict = spec.validate(run, spec.cwd);
    if (verdict.unsupported) {
      result.status = 'n/a';
      result.note = verdict.unsupported;
      return;
    }
    if (!verdict.ok) {
      result.status = 'failed';
      result.note = `${i < 0 ? 'warm-up' : `run ${i + 1}`}: ${verdict.problem}`;
      return;
    }
    result.validation = { findings: verdict.findings, files: verdict.files, byRule: verdict.byRule, unexpected: verdict.unexpected, missing: verdict.missing };
    if (verdict.unexpected?.length || verdict.missing?.length) result.mismatch = true;
    if (spec.info) result.info = spec.info(run);
    if (i < 0) return;
    result.runsMs.push(run.wallMs);
    if (run.rssKiB !== null) result.rssKiB.push(run.rssKiB);
    if (run.cpuMs !== null) result.cpuMs.push(run.cpuMs);
    if (run.typescriptLoaded !== null) result.typescriptLoadedRuns = (result.typescriptLoadedRuns ?? 0) + (run.typescriptLoaded ? 1 : 0);
  };
  for (const spec of specs) if (results.get(spec.id).status === 'pending') spec.prepare?.();
  // Without a warm-up (a 50k cold run that takes minutes) the first run must still pass validation.
  const rounds = Math.max(warmups, ...specs.map((spec) => spec.minWarmups ?? 0));
  for (let w = 0; w < rounds; w++) for (const spec of active()) once(spec, -1);
  for (let i = 0; i < runs; i++) for (const spec of active()) once(spec, i);
  for (const result of results.values()) {
    if (result.status === 'pending') {
      result.status = result.mismatch ? 'mismatch' : 'ok';
      result.medianMs = Math.round(median(result.runsMs));
      result.minMs = Math.round(Math.min(...result.runsMs));
      result.maxMs = Math.round(Math.max(...result.runsMs));
      result.peakRssMiB = result.rssKiB.length > 0 ? Math.round(Math.max(...result.rssKiB) / 1024) : null;
      result.cpuMedianMs = result.cpuMs.length > 0 ? Math.round(median(result.cpuMs)) : null;
      if (result.mismatch) {
        result.note = `findings differ from the seeded ones: unexpected ${JSON.stringify(result.validation.unexpected.slice(0, 5))}, missing ${JSON.stringify(result.validation.missing.slice(0, 5))}`;
      }
    }
    result.runsMs = result.runsMs.map(Math.round);
    delete result.rssKiB;
    result.cpuMs = result.cpuMs.map(Math.round);
    delete result.mismatch;
    log(`  ${result.id.padEnd(26)} ${result.status === 'ok' || result.status === 'mismatch' ? `${fmtTime(result.medianMs).padStart(8)}  cpu ${fmtTime(result.cpuMedianMs).padStart(8)} ${String(result.peakRssMiB ?? '?').padStart(5)} MiB` : result.status.padStart(8)}${result.note ? `  (${result.note})` : ''}`);
  }
  return [...results.values()];
}

function pluginRecommended() {
  if (!existsSync(PLUGIN)) return 'dist/src/index.js is missing: npm run build';
  const probe = `import(${JSON.stringify(pathToFileURL(PLUGIN).href)}).then((m) => { const r = m.default?.configs?.recommended; process.stdout.write(r ? 'yes' : 'no'); }, (e) => { process.stdout.write('error ' + e.message); })`;
  const answer = execFileSync(process.execPath, ['--input-type=module', '-e', probe], { encoding: 'utf8' });
  if (answer === 'yes') return null;
  return answer.startsWith('error') ? `the plugin does not load: ${answer.slice(6)}` : 'dist/src/index.js has no default export with configs.recommended yet';
}

function sizeSpecs({ out, meta, outDir, label, recommendedNa }) {
  const cache = path.join(outDir, `${label}.tripwire-cache`);
  const eslintCache = (name) => path.join(outDir, `${label}.eslintcache-${name}`);
  const check = (...args) => [process.execPath, BIN, 'check', '--format', 'json', ...args];
  const eslint = (config, ...args) => [process.execPath, ESLINT, '--config', path.join(BENCH, config), '--format', 'json', ...args, '.'];
  const expected = meta.expectedFindings;
  let original = null;
  const helperEditSpec = (id, label, argv, edit, file = meta.stagedHelper) => ({
    id,
    label,
    argv,
    cwd: out,
    probe: true,
    before: (i) => {
      original = edit(out, file, `${process.pid}-${Date.now()}-${i}`);
    },
    after: () => {
      if (original !== null) restoreHelper(out, file, original);
      original = null;
    },
    validate: checkValidator(expected, 'subset'),
  });
  // Shipped text a rule may name nothing in: the first skill file the generator wrote.
  const skill = git(out, ['ls-files', '--', 'skills/*/SKILL.md']).split('\n').find(Boolean);
  return [
    [
      {
        id: 'floor',
        label: 'floor (list, read, TS parse, markdown-it; one process)',
        argv: [process.execPath, path.join(BENCH, 'floor.mjs'), out],
        cwd: ROOT,
        validate: exitValidator(0, /"totalMs"/),
        info: (run) => JSON.parse(run.stdout),
      },
      {
        id: 'check-cold',
        label: 'tripwire check, cold (--no-cache)',
        argv: check('--no-cache'),
        cwd: out,
        probe: true,
        validate: checkValidator(expected, 'exact'),
      },
    ],
    [
      {
        id: 'check-warm',
        label: 'tripwire check, warm (cache, nothing changed)',
        argv: check('--cache-location', cache),
        cwd: out,
        probe: true,
        prepare: () => rmSync(cache, { recursive: true, force: true }),
        // The warm-up is the run that fills the cache.
        minWarmups: 1,
        validate: checkValidator(expected, 'exact'),
      },
    ],
    [
      {
        id: 'check-base',
        label: 'tripwire check --base HEAD~1 (cache warm)',
        argv: check('--base', 'HEAD~1', '--cache-location', cache),
        cwd: out,
        probe: true,
        validate: checkValidator(expected, 'exact'),
      },
    ],
    // A new edit per run: neither the verdict nor the edited helper's facts are ever cached.
    [helperEditSpec('check-staged', 'tripwire check --staged, one staged helper edit (cache warm)', check('--staged', '--cache-location', cache), stageHelperEdit)],
    [helperEditSpec('check-edit', 'tripwire check, one unstaged helper edit (cache warm)', check('--cache-location', cache), editHelper)],
    // The rules that read no shipped text keep the verdicts the run before stored (engine/verdicts.ts).
    ...(skill ? [[helperEditSpec('check-text-edit', 'tripwire check, one line added to a shipped skill (cache warm)', check('--cache-location', cache), editText, skill)]] : []),
    [
      {
        id: 'eslint-parser',
        label: 'eslint, @typescript-eslint/parser, no rules',
        argv: eslint('eslint.parser.config.mjs'),
        cwd: out,
        validate: eslintValidator({ allowMessages: false }),
      },
      {
        id: 'eslint-recommended',
        label: 'eslint, parser + tripwire configs.recommended (tripwire fact cache emptied before each run)',
        argv: eslint('eslint.recommended.config.mjs'),
        cwd: out,
        // Cold means cold for tripwire too: the plugin writes its fact cache, so
        // without this every run after the first would find the facts parsed.
        before: () => rmSync(defaultFactCache(out), { recursive: true, force: true }),
        env: { TRIPWIRE_BENCH_PLUGIN: PLUGIN },
        available: () => recommendedNa,
        validate: eslintValidator({ allowMessages: true, expected }),
      },
    ],
    [
      {
        id: 'eslint-parser-cache',
        label: 'eslint --cache, parser, no rules',
        argv: eslint('eslint.parser.config.mjs', '--cache', '--cache-location', eslintCache('parser')),
        cwd: out,
        prepare: () => rmSync(eslintCache('parser'), { force: true }),
        validate: eslintValidator({ allowMessages: false }),
      },
      {
        id: 'eslint-recommended-cache',
        label: 'eslint --cache, parser + configs.recommended',
        argv: eslint('eslint.recommended.config.mjs', '--cache', '--cache-location', eslintCache('recommended')),
        cwd: out,
        env: { TRIPWIRE_BENCH_PLUGIN: PLUGIN },
        available: () => recommendedNa,
        prepare: () => rmSync(eslintCache('recommended'), { force: true }),
        validate: eslintValidator({ allowMessages: true, expected }),
      },
    ],
  ];
}

function globalSpecs(outDir) {
  const empty = path.join(outDir, 'empty');
  return [
    [
      { id: 'version', label: 'tripwire --version', argv: [process.execPath, BIN, '--version'], cwd: outDir, probe: true, validate: exitValidator(0, /^\d+\.\d+\.\d+/) },
      {
        id: 'empty',
        label: 'tripwire check, empty repository',
        argv: [process.execPath, BIN, 'check', '--format', 'json', '--no-cache'],
        cwd: empty,
        probe: true,
        prepare: () => {
          if (!existsSync(path.join(empty, '.git'))) {
            mkdirSync(empty, { recursive: true });
            git(empty, ['init', '-q', '-b', 'main']);
          }
        },
        validate: checkValidator([], 'exact'),
      },
    ],
  ];
}

// -------------------------------------------------------------------- report

function fmtTime(ms) {
  if (ms === undefined || ms === null) return 'n/a';
  const s = ms / 1000;
  return s < 10 ? `${s.toFixed(2)} s` : `${s.toFixed(1)} s`;
}

function cell(result) {
  if (!result) return '–';
  if (result.status === 'n/a') return 'n/a';
  if (result.status === 'failed') return 'failed';
  return `${fmtTime(result.medianMs)} (${fmtTime(result.minMs)}) · cpu ${fmtTime(result.cpuMedianMs)} · ${result.peakRssMiB ?? '?'} MiB${result.status === 'mismatch' ? ' ⚠' : ''}`;
}

const ratio = (a, b, field = 'medianMs') => (a?.[field] && b?.[field] && ['ok', 'mismatch'].includes(a.status) && ['ok', 'mismatch'].includes(b.status) ? a[field] / b[field] : null);
const fmtRatio = (r) => (r === null ? 'n/a' : `${r.toFixed(2)}×`);

const ROWS = [
  ['floor', 'floor: list + read + TS parse + markdown-it'],
  ['check-cold', '`check` cold (`--no-cache`)'],
  ['check-warm', '`check` warm (cache, nothing changed)'],
  ['check-edit', '`check`, one helper edited (facts cached)'],
  ['check-text-edit', '`check`, one line of shipped text added'],
  ['check-staged', '`check --staged`, one staged helper edit'],
  ['check-base', '`check --base HEAD~1`'],
  ['eslint-parser', 'eslint, parser only'],
  ['eslint-recommended', 'eslint + `configs.recommended`'],
  ['eslint-parser-cache', 'eslint `--cache`, parser only'],
  ['eslint-recommended-cache', 'eslint `--cache` + `configs.recommended`'],
];

function byId(sizeResult, id) {
  return sizeResult?.commands.find((command) => command.id === id);
}

function table(results) {
  const sizes = results.sizes;
  const lines = [];
  lines.push(`| test files → wall median (min) · cpu median · peak RSS | ${sizes.map((s) => s.label).join(' | ')} |`);
  lines.push(`|---|${sizes.map(() => '---').join('|')}|`);
  lines.push(`| files: all / TS / Markdown | ${sizes.map((s) => `${s.counts.files} / ${s.counts.scriptFiles} / ${s.counts.markdownFiles}`).join(' | ')} |`);
  for (const [id, title] of ROWS) {
    if (sizes.every((s) => !byId(s, id))) continue;
    lines.push(`| ${title} | ${sizes.map((s) => cell(byId(s, id))).join(' | ')} |`);
  }
  const both = (s, a, b) => {
    const wall = ratio(byId(s, a), byId(s, b));
    return wall === null ? 'n/a' : `${fmtRatio(wall)} (cpu ${fmtRatio(ratio(byId(s, a), byId(s, b), 'cpuMedianMs'))})`;
  };
  lines.push(`| **check cold / floor** | ${sizes.map((s) => both(s, 'check-cold', 'floor')).join(' | ')} |`);
  lines.push(`| **eslint+tripwire / eslint**, cold | ${sizes.map((s) => both(s, 'eslint-recommended', 'eslint-parser')).join(' | ')} |`);
  lines.push(`| **eslint+tripwire / eslint**, \`--cache\` | ${sizes.map((s) => both(s, 'eslint-recommended-cache', 'eslint-parser-cache')).join(' | ')} |`);
  const global = results.global ?? [];
  if (global.length > 0) {
    lines.push('');
    lines.push('| size-independent | wall median (min) · cpu · peak RSS |');
    lines.push('|---|---|');
    for (const result of global) lines.push(`| ${result.id === 'version' ? '`tripwire --version`' : '`tripwire check`, empty repository'} | ${cell(result)} |`);
  }
  return lines.join('\n');
}

function targets(results) {
  const out = [];
  const ok = (r) => r && ['ok', 'mismatch'].includes(r.status);
  const show = (value, unit) => (value === null || value === undefined ? 'n/a' : unit === ' s' ? `${(value / 1000).toFixed(2)} s` : `${value.toFixed(2)}${unit}`);
  // A time target is judged on the wall-clock median; the CPU figure beside it
  // says how much of a miss the load of the machine can explain.
  const verdict = (name, value, cpu, limit, unit) => {
    const limitValue = unit === ' s' ? limit * 1000 : limit;
    const judged = value === null || value === undefined ? 'n/a' : value <= limitValue ? 'met' : `missed by ${(value / limitValue).toFixed(1)}×`;
    out.push(`| ${name} | ${show(value, unit)} | ${show(cpu, unit)} | ${limit}${unit} | ${judged} |`);
  };
  const time = (r) => (ok(r) ? [r.medianMs, r.cpuMedianMs] : [null, null]);
  const ratios = (s, a, b) => [ratio(byId(s, a), byId(s, b)), ratio(byId(s, a), byId(s, b), 'cpuMedianMs')];
  for (const s of results.sizes) {
    if (byId(s, 'check-cold') || byId(s, 'floor')) verdict(`${s.label}: check cold / floor`, ...ratios(s, 'check-cold', 'floor'), 1.5, '×');
    const warm = byId(s, 'check-warm');
    if ((s.size <= 1000 || s.size === 10000) && warm) verdict(`${s.label}: warm check`, ...time(warm), s.size <= 1000 ? 0.25 : 1, ' s');
    if (ok(warm) && warm.typescriptLoadedRuns !== null) {
      const loads = warm.typescriptLoadedRuns;
      out.push(`| ${s.label}: warm check loads no compiler | ${loads > 0 ? `loads it (${loads} of ${warm.runsMs.length} runs)` : 'does not'} | | does not | ${loads > 0 ? 'missed' : 'met'} |`);
    }
    if (s.size === 10000 && byId(s, 'check-staged')) verdict(`${s.label}: --staged, one helper`, ...time(byId(s, 'check-staged')), 0.75, ' s');
    if (byId(s, 'eslint-recommended') || byId(s, 'eslint-parser')) verdict(`${s.label}: eslint+tripwire / eslint, cold`, ...ratios(s, 'eslint-recommended', 'eslint-parser'), 1.3, '×');
    if (byId(s, 'eslint-recommended-cache') || byId(s, 'eslint-parser-cache')) verdict(`${s.label}: eslint+tripwire / eslint, --cache`, ...ratios(s, 'eslint-recommended-cache', 'eslint-parser-cache'), 1.3, '×');
  }
  const s10 = results.sizes.find((s) => s.size === 10000);
  const s50 = results.sizes.find((s) => s.size === 50000);
  if (s50) {
    const cold = byId(s50, 'check-cold');
    verdict('50k: cold peak RSS', ok(cold) ? cold.peakRssMiB / 1024 : null, null, 2, ' GiB');
    if (s10) verdict('50k/10k cold time (linear: 5)', ratio(cold, byId(s10, 'check-cold')), ratio(cold, byId(s10, 'check-cold'), 'cpuMedianMs'), 5, '×');
  }
  for (const result of results.global ?? []) {
    verdict(result.id === 'version' ? '`--version`' : '`check`, empty repository', ...time(result), result.id === 'version' ? 0.25 : 0.4, ' s');
  }
  return ['| target | wall | cpu | limit | verdict |', '|---|---|---|---|---|', ...out].join('\n');
}

function machine() {
  const cpus = os.cpus();
  let commit = null;
  let dirty = null;
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: ROOT, encoding: 'utf8' }).trim() !== '';
  } catch {
    // not a git checkout
  }
  return {
    cpu: cpus[0]?.model ?? 'unknown',
    cores: cpus.length,
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    git: execFileSync('git', ['--version'], { encoding: 'utf8' }).trim(),
    tripwire: JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version,
    tripwireCommit: commit,
    tripwireWorkTreeDirty: dirty,
    rssSource: RSS_SOURCE,
  };
}

// ---------------------------------------------------------------------- main

function main() {
  const { values } = parseArgs({
    options: {
      sizes: { type: 'string', default: '1k' },
      runs: { type: 'string', default: '5' },
      'eslint-runs': { type: 'string' },
      warmups: { type: 'string', default: '1' },
      seed: { type: 'string', default: '1' },
      only: { type: 'string' },
      skip: { type: 'string' },
      'out-dir': { type: 'string', default: path.join(BENCH, 'out') },
      'keep-build': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a positive integer, got '${values.runs}'`);
  const eslintRuns = Number(values['eslint-runs'] ?? runs);
  if (!Number.isInteger(eslintRuns) || eslintRuns < 1) throw new Error(`--eslint-runs must be a positive integer, got '${values['eslint-runs']}'`);
  const warmups = Number(values.warmups);
  if (!Number.isInteger(warmups) || warmups < 0) throw new Error(`--warmups must be a non-negative integer, got '${values.warmups}'`);
  const seed = Number(values.seed);
  const sizes = values.sizes.split(',').filter(Boolean).map(parseSize);
  const only = values.only?.split(',').filter(Boolean);
  const skip = new Set(values.skip?.split(',').filter(Boolean) ?? []);
  const wanted = (spec) => (!only || only.includes(spec.id)) && !skip.has(spec.id);
  const outDir = path.resolve(values['out-dir']);
  mkdirSync(outDir, { recursive: true });
  if (!existsSync(BIN)) throw new Error(`${path.relative(ROOT, BIN)} is missing: run npm run build (npm run bench does)`);
  const snapshot = path.join(outDir, 'tripwire-build');
  if (values['keep-build'] && existsSync(path.join(snapshot, 'dist', 'cli', 'bin.js'))) {
    BIN = path.join(snapshot, 'dist', 'cli', 'bin.js');
    PLUGIN = path.join(snapshot, 'dist', 'src', 'index.js');
  } else {
    snapshotBuild(snapshot);
  }
  // The snapshot keeps the build's mtimes: sizes measured with the same builtAt ran the same code.
  const builtAt = statSync(BIN).mtime.toISOString();
  const log = (line) => process.stderr.write(`${line}\n`);

  const started = new Date();
  const results = { date: started.toISOString(), machine: { ...machine(), builtAt }, runs, eslintRuns, warmups, seed, sizes: [], global: [] };
  log(`machine: ${results.machine.cpu}, ${results.machine.cores} cores, ${results.machine.memoryGiB} GiB, node ${results.machine.node}; load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);

  const globalGroups = globalSpecs(outDir).map((group) => group.filter(wanted)).filter((group) => group.length > 0);
  if (globalGroups.length > 0) {
    log('size-independent:');
    for (const group of globalGroups) results.global.push(...measureGroup(group, runs, warmups, log));
  }

  const recommendedNa = pluginRecommended();
  for (const size of sizes) {
    const label = sizeLabel(size);
    const out = path.join(outDir, label);
    log(`${label}:`);
    const meta = generate({ size, seed, out, bin: BIN, log: (line) => log(`  ${line}`) });
    const loadBefore = os.loadavg()[0];
    const sizeStarted = performance.now();
    const commands = [];
    for (const group of sizeSpecs({ out, meta, outDir, label, recommendedNa })) {
      const chosen = group.filter(wanted);
      if (chosen.length > 0) commands.push(...measureGroup(chosen, chosen.every((spec) => spec.id.startsWith('eslint')) ? eslintRuns : runs, warmups, log));
    }
    if (!isClean(out)) throw new Error(`${out} is not clean after the benchmark: a staged edit was not undone`);
    results.sizes.push({
      size,
      label,
      measuredAt: new Date().toISOString(),
      tripwireCommit: results.machine.tripwireCommit,
      builtAt,
      seconds: Math.round((performance.now() - sizeStarted) / 1000),
      runs,
      eslintRuns,
      warmups,
      loadAverage1m: { before: loadBefore, after: os.loadavg()[0] },
      counts: meta.counts,
      commits: meta.commits,
      commands,
    });
  }

  // One file per day; a later run of the same size replaces that size's entry.
  const file = path.join(outDir, `results-${started.toISOString().slice(0, 10)}.json`);
  let merged = results;
  if (existsSync(file)) {
    const previous = JSON.parse(readFileSync(file, 'utf8'));
    const withMeta = (s) => ({ runs: previous.runs, eslintRuns: previous.eslintRuns ?? previous.runs, warmups: previous.warmups ?? 1, builtAt: previous.machine.builtAt, ...s });
    const fresh = new Map(results.sizes.map((s) => [s.label, s]));
    merged = {
      ...results,
      sizes: [
        ...previous.sizes.filter((s) => !fresh.has(s.label)).map(withMeta),
        // A size measured again in part (--only, --skip) keeps the commands this run did not measure,
        // each marked with the build and run counts it was measured with.
        ...results.sizes.map((s) => {
          const before = previous.sizes.find((p) => p.label === s.label);
          if (!before) return s;
          const kept = withMeta(before);
          const measured = new Set(s.commands.map((c) => c.id));
          const carried = kept.commands.filter((c) => !measured.has(c.id)).map((c) => ({ runs: kept.runs, warmups: kept.warmups, builtAt: kept.builtAt, ...c }));
          return { ...s, commands: [...carried, ...s.commands] };
        }),
      ].sort((a, b) => a.size - b.size),
      global: results.global.length > 0 ? results.global : previous.global,
    };
  }
  writeFileSync(file, `${JSON.stringify(merged, null, 2)}\n`);

  const m = merged.machine;
  process.stdout.write(`\n${table(merged)}\n\n${targets(merged)}\n\nMachine: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB RAM, ${m.os}, node ${m.node}, ${m.git}; tripwire ${m.tripwire}, HEAD ${m.tripwireCommit}${m.tripwireWorkTreeDirty ? ' (work tree dirty)' : ''}, build of ${[...new Set(merged.sizes.map((s) => s.builtAt))].join(' / ')}. Time: wall median (minimum) and CPU (user+system) median; ${merged.sizes.map((s) => `${s.label}: ${s.runs} run${s.runs === 1 ? '' : 's'}${s.eslintRuns !== s.runs ? ` (ESLint ${s.eslintRuns})` : ''} after ${s.warmups} warm-up${s.warmups === 1 ? '' : 's'}`).join(', ')}; peak RSS: ${m.rssSource}.\nResults: ${path.relative(process.cwd(), file)}\n`);
  const bad = [...merged.sizes.flatMap((s) => s.commands), ...merged.global].filter((r) => r.status === 'failed' || r.status === 'mismatch');
  return bad.length > 0 ? 1 : 0;
}

try {
  process.exitCode = main();
} catch (error) {
  process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 2;
}
