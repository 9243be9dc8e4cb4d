#!/usr/bin/env node
// Generates a synthetic harness repository for the benchmarks:
//
//   node bench/generate.mjs --size 1k --seed 1 --out bench/out/1k
//   node bench/generate.mjs --out bench/out/1k --stage NONCE   # stage one helper edit
//   node bench/generate.mjs --out bench/out/1k --unstage       # undo it
//
// The repository has two commits (so `--base HEAD~1` sees a realistic diff:
// an edited helper, a removed export, a renamed and an added test, an edited
// skill) and is byte-identical for the same size, seed and generator version.
// A sidecar `<out>.meta.json` records what was generated and the findings a
// correct `tripwire check` must report.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createPlan, GENERATOR_VERSION, parseSize, sizeLabel } from './lib/plan.mjs';
import { renderRepository } from './lib/render.mjs';
import { commitAll, git, initRepository, isClean, restoreHelper, stageHelperEdit } from './lib/repo.mjs';

const HELP = `Usage: node bench/generate.mjs [options]

  --size N        test files: 1000, 1k, 10k, 50k (default 1k)
  --seed N        random seed (default 1)
  --out DIR       where to write the repository (default bench/out/<size>)
  --no-frozen     leave out the freeze manifest (.tripwire/frozen.json)
  --force         replace DIR even when it holds the same size, seed and version
  --stage NONCE   in an existing DIR: stage one helper edit (for check --staged)
  --unstage       in an existing DIR: undo --stage
`;

export function metaPath(out) {
  return path.join(path.dirname(out), `${path.basename(out)}.meta.json`);
}

export function readMeta(out) {
  try {
    return JSON.parse(readFileSync(metaPath(out), 'utf8'));
  } catch {
    return null;
  }
}

const BIN = fileURLToPath(new URL('../dist/cli/bin.js', import.meta.url));
const FROZEN_FILES = 5;

/**
 * Pins the tests of a few free test files with `tripwire freeze add`: the
 * manifest holds AST hashes only tripwire computes. Optional: skipped (and
 * recorded in the meta file) when the built CLI has no `freeze` command.
 */
function freezeSome(out, plan, files, bin, log) {
  if (!existsSync(bin) || spawnSync(process.execPath, [bin, 'freeze', '--help'], { encoding: 'utf8' }).status !== 0) {
    log('no freeze manifest: the built tripwire has no `freeze` command (npm run build)');
    return [];
  }
  const chosen = plan.frozenCandidates.filter(({ test }) => !/\.(?:skip|todo)\(/.test(files.get(test.file) ?? '')).slice(0, FROZEN_FILES);
  for (const { area, test } of chosen) {
    const reason = `Oracle for the ${area.name} ranking; a change needs a reviewer from the ${area.head} team.`;
    const child = spawnSync(process.execPath, [bin, 'freeze', 'add', test.file, '--reason', reason, '--owner', `@${area.head}-team`], { cwd: out, encoding: 'utf8' });
    if (child.status !== 0) throw new Error(`tripwire freeze add ${test.file} failed (exit ${child.status}): ${child.stderr.trim()}`);
  }
  return chosen.map(({ test }) => test.file);
}

function writeFiles(root, files) {
  const dirs = new Set();
  for (const file of files.keys()) dirs.add(path.dirname(path.join(root, file)));
  for (const dir of [...dirs].sort()) mkdirSync(dir, { recursive: true });
  for (const [file, text] of files) writeFileSync(path.join(root, file), text);
}

/** Generates (or reuses, when the meta file matches) the repository at `out`. */
export function generate({ size, seed = 1, out, frozen = true, force = false, bin = BIN, log = () => {} }) {
  const existing = readMeta(out);
  if (!force && existing && existing.size === size && existing.seed === seed && existing.frozen === frozen && existing.generatorVersion === GENERATOR_VERSION && existsSync(path.join(out, '.git')) && isClean(out)) {
    log(`reusing ${out} (size ${size}, seed ${seed})`);
    return existing;
  }
  const started = performance.now();
  rmSync(out, { recursive: true, force: true });
  rmSync(metaPath(out), { force: true });
  mkdirSync(out, { recursive: true });

  const plan = createPlan({ size, seed, frozen });
  const first = renderRepository(plan, 1);
  writeFiles(out, first);
  initRepository(out);
  const frozenFiles = frozen ? freezeSome(out, plan, first, bin, log) : [];
  const base = commitAll(out, 'Synthetic harness', '2025-01-06T09:00:00Z');

  const second = renderRepository(plan, 2);
  for (const file of first.keys()) if (!second.has(file)) rmSync(path.join(out, file));
  writeFiles(out, new Map([...second].filter(([file, text]) => first.get(file) !== text)));
  const head = commitAll(out, 'Rank with clamped scores; rename and add free tests; drop the legacy formatter', '2025-01-07T09:00:00Z');
  const changed = git(out, ['diff', '--name-status', '-M', 'HEAD~1', 'HEAD']).trim().split('\n');

  let bytes = 0;
  let markdownBytes = 0;
  let scriptFiles = 0;
  let markdownFiles = 0;
  for (const [file, text] of second) {
    bytes += Buffer.byteLength(text);
    if (file.endsWith('.md')) {
      markdownFiles++;
      markdownBytes += Buffer.byteLength(text);
    }
    if (file.endsWith('.ts')) scriptFiles++;
  }
  const paid = plan.areas.flatMap((area) => area.paid);
  const meta = {
    generatorVersion: GENERATOR_VERSION,
    size,
    seed,
    frozen,
    label: sizeLabel(size),
    commits: { base, head },
    counts: {
      files: second.size + (frozenFiles.length > 0 ? 1 : 0),
      bytes,
      scriptFiles,
      markdownFiles,
      markdownBytes,
      testFiles: plan.areas.reduce((sum, area) => sum + area.free.length + area.paid.length, 0) + 1,
      freeTests: plan.areas.reduce((sum, area) => sum + area.free.length, 0) + 1,
      paidTests: paid.length,
      paidIds: paid.reduce((sum, test) => sum + test.ids.length, 0),
      areas: plan.areas.length,
      mapFiles: plan.groups.length,
      skills: plan.skills.length,
      largeSkills: plan.skills.filter((skill) => skill.large).map((skill) => ({ name: skill.name, bytes: Buffer.byteLength(second.get(`skills/${skill.name}/SKILL.md`) ?? '') })),
    },
    frozenFiles,
    expectedFindings: plan.expectedFindings,
    lookAlikes: plan.areas.flatMap((area) => area.free.filter((test) => test.kind === 'mocked' || test.kind === 'pure-scenario').map((test) => ({ kind: test.kind, file: test.file }))),
    stagedHelper: plan.edits.stagedHelper,
    secondCommit: changed,
    generatedInMs: Math.round(performance.now() - started),
  };
  writeFileSync(metaPath(out), `${JSON.stringify(meta, null, 2)}\n`);
  log(`generated ${out}: ${meta.counts.files} files, ${meta.counts.testFiles} test files, ${meta.counts.paidIds} paid ids in ${meta.generatedInMs} ms`);
  return meta;
}

function main() {
  const { values } = parseArgs({
    options: {
      size: { type: 'string', default: '1k' },
      seed: { type: 'string', default: '1' },
      out: { type: 'string' },
      frozen: { type: 'boolean', default: true },
      force: { type: 'boolean', default: false },
      stage: { type: 'string' },
      unstage: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
    allowNegative: true,
  });
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const size = parseSize(values.size);
  const seed = Number(values.seed);
  if (!Number.isInteger(seed)) throw new Error(`--seed must be an integer, got '${values.seed}'`);
  const out = path.resolve(values.out ?? path.join('bench', 'out', sizeLabel(size)));

  if (values.stage !== undefined || values.unstage) {
    const meta = readMeta(out);
    if (!meta) throw new Error(`${out} has no ${path.basename(metaPath(out))}: generate it first`);
    const backup = path.join(out, '.git', 'bench-staged-original');
    if (values.unstage) {
      if (!existsSync(backup)) throw new Error('nothing staged by --stage');
      restoreHelper(out, meta.stagedHelper, readFileSync(backup, 'utf8'));
      rmSync(backup);
      process.stdout.write(`unstaged ${meta.stagedHelper}\n`);
    } else {
      if (existsSync(backup)) throw new Error('a helper edit is already staged: run --unstage first');
      writeFileSync(backup, stageHelperEdit(out, meta.stagedHelper, values.stage));
      process.stdout.write(`staged an edit of ${meta.stagedHelper}\n`);
    }
    return 0;
  }
  generate({ size, seed, out, frozen: values.frozen, force: values.force, log: (line) => process.stdout.write(`${line}\n`) });
  return 0;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  try {
    process.exitCode = main();
  } catch (error) {
    process.stderr.write(`generate: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  }
}
