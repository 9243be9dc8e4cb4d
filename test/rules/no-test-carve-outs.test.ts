import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'jsonc-parser';
import { describe, expect, it } from 'vitest';
import { check } from '../../src/engine/index.js';
import { fixtureRepo } from '../support/overlay.js';
import { git, makeGitRepo, writeFiles } from '../support/repo.js';

/** Every finding under every rule, so that a case proves it breaks exactly one thing. */
async function findings(dir: string): Promise<string[]> {
  const result = await check({ cwd: dir, cache: false });
  return result.findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.ruleId === 'no-test-carve-outs' ? '' : `[${f.ruleId}] `}${f.message}`);
}

type Config = { shipped?: Record<string, unknown> } & Record<string, unknown>;

function configure(dir: string, change: (config: Config) => Config): void {
  const path = join(dir, 'tripwire.config.json');
  writeFileSync(path, JSON.stringify(change(parse(readFileSync(path, 'utf8')))));
}

const SEAM = 'put the seam in the test environment (a stub first on PATH, a fixture) instead';

describe('no-test-carve-outs on fixtures/shipped (a skills catalog)', () => {
  it('finds nothing in the good catalog under every rule: the real gh named, a product knob the tests turn, an illustrative example', async () => {
    const result = await check({ cwd: fixtureRepo('shipped/good'), cache: false });
    expect(result.findings).toEqual([]);
  });

  it('reports a SKILL.md that honours the fixture env var, naming where the tests set it', async () => {
    const result = await check({ cwd: fixtureRepo('shipped/good', 'shipped/bad/fixture-env-in-skill'), cache: false });
    expect(result.findings.map((f) => `${f.file}:${f.line}:${f.column}-${f.endColumn} ${f.ruleId}`)).toEqual(['skills/checking-merge-readiness/SKILL.md:31:5-16 no-test-carve-outs']);
    expect(result.findings[0]?.message).toBe(
      `names CMR_FIXTURE, an env var that only the tests and fixtures use (set at tests/checking-merge-readiness/cases/merge-digest.test.ts:12): anyone who sets it gets the path the harness gets. Do not honour it in what ships; ${SEAM}, or list it in shipped.allow with a reason.`,
    );
    expect(result.findings[0]?.related).toEqual([
      { file: 'tests/checking-merge-readiness/cases/merge-digest.test.ts', line: 12, column: 64, message: 'set here' },
      { file: 'tests/checking-merge-readiness/fixtures/bin/gh', line: 21, column: 32, message: 'read here' },
    ]);
  });

  it('reports a test-only env var named many times in prose once per file, as a warning with the count; each read by a shipped script stays its own error', async () => {
    const dir = makeGitRepo({
      'tripwire.config.json': JSON.stringify({ tests: { include: ['tests/**/*.test.ts'] }, shipped: { include: ['skills/**/SKILL.md', 'skills/**/*.sh'] } }),
      'tests/review/review.test.ts': `import { spawnSync } from 'node:child_process';\nimport { test } from 'vitest';\ntest('reviews', () => {\n  spawnSync('sh', ['skills/review/fetch.sh'], { env: { ...process.env, REVIEW_FIXTURE_DIR: 'tests/review/fixtures' } });\n});\n`,
      'skills/review/SKILL.md': '# Review\n\nIf REVIEW_FIXTURE_DIR is set, read the change from it.\n\nOtherwise ignore REVIEW_FIXTURE_DIR.\n\nREVIEW_FIXTURE_DIR wins over the forge.\n',
      'skills/review/fetch.sh': '#!/bin/sh\nif [ -n "$REVIEW_FIXTURE_DIR" ]; then\n  cat "$REVIEW_FIXTURE_DIR/change.diff"\nfi\n',
    });
    const result = await check({ cwd: dir, cache: false, rules: ['no-test-carve-outs'] });
    expect(result.findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.messageId} ${f.severity}${f.message.endsWith('first.') ? ' (counted)' : ''}`)).toEqual([
      'skills/review/SKILL.md:3:4 testOnlyEnvMention warn (counted)',
      'skills/review/fetch.sh:2:11 testOnlyEnvVar error',
      'skills/review/fetch.sh:3:9 testOnlyEnvVar error',
    ]);
    expect(result.findings[0]?.message).toMatch(/ Named 3 times in this file; this is the first\.$/);
  });

  it('reports shipped code that reads a test-only variable as an error, and a string that only names it only under the strict preset', async () => {
    const dir = makeGitRepo({
      'tripwire.config.json': JSON.stringify({ tests: { include: ['tests/**/*.test.ts'] }, shipped: { include: ['src/**/*.ts'] } }),
      'tests/review.test.ts': `import { test } from 'vitest';\ntest('reviews', () => {\n  process.env.REVIEW_FIXTURE_DIR = 'tests/fixtures';\n});\n`,
      'src/env.ts': `export const dir = process.env.REVIEW_FIXTURE_DIR;\nexport const names = ['REVIEW_FIXTURE_DIR'];\n`,
    });
    const result = await check({ cwd: dir, cache: false, rules: ['no-test-carve-outs'] });
    expect(result.findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.messageId} ${f.severity}`)).toEqual(['src/env.ts:1:20 testOnlyEnvVar error']);
    configure(dir, (config) => ({ ...config, preset: 'strict' }));
    const strict = await check({ cwd: dir, cache: false, rules: ['no-test-carve-outs'] });
    expect(strict.findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.messageId} ${f.severity}`)).toEqual([
      'src/env.ts:1:20 testOnlyEnvVar error',
      'src/env.ts:2:23 testOnlyEnvString error',
    ]);
  });

  it('reports a SKILL.md that points at a fixture path under tests/', async () => {
    expect(await findings(fixtureRepo('shipped/good', 'shipped/bad/fixture-path-in-skill'))).toEqual([
      `skills/checking-merge-readiness/SKILL.md:37:10 names tests/checking-merge-readiness/fixtures/specimens/green-pr/forge.json, a path inside the test roots or fixtures: what ships must not depend on the harness. Remove it and ${SEAM}, or list it in shipped.allow with a reason.`,
    ]);
  });

  it('leaves prose that names the test guarding it alone, and still reports the fixture beside it', async () => {
    const dir = fixtureRepo('shipped/good');
    const skill = join(dir, 'skills/checking-merge-readiness/SKILL.md');
    const lines = readFileSync(skill, 'utf8').split('\n');
    lines.splice(8, 0, 'The outcome menu is locked by `tests/checking-merge-readiness/cases/merge-digest.test.ts`; see `tests/checking-merge-readiness/fixtures/bin/gh`.');
    writeFileSync(skill, lines.join('\n'));
    expect((await findings(dir)).map((line) => line.slice(0, line.indexOf(',')))).toEqual([
      'skills/checking-merge-readiness/SKILL.md:9:97 names tests/checking-merge-readiness/fixtures/bin/gh',
    ]);
  });

  it('reports shipped source that branches on NODE_ENV === test', async () => {
    expect(await findings(fixtureRepo('shipped/good', 'shipped/bad/runner-branch-in-source'))).toEqual([
      "src/digest.ts:14:19 branches on test-runner detection (NODE_ENV === 'test'): shipped code must behave the same under test. Inject the dependency the test needs to replace; an import.meta.vitest block is fine, the bundler strips it.",
    ]);
  });

  it('scans a shipped shell helper lexically for the fixture env var', async () => {
    const lines = await findings(fixtureRepo('shipped/good', 'shipped/bad/fixture-env-in-helper'));
    expect(lines.map((line) => line.slice(0, line.indexOf(' ')))).toEqual(['skills/checking-merge-readiness/scripts/fetch-pr.sh:6:12', 'skills/checking-merge-readiness/scripts/fetch-pr.sh:6:42']);
  });

  it('lets an allow-listed token through, only in the files the entry names', async () => {
    const dir = fixtureRepo('shipped/good', 'shipped/bad/fixture-env-in-skill');
    configure(dir, (config) => ({ ...config, shipped: { ...config.shipped, allow: [{ token: 'CMR_FIXTURE', files: ['skills/other/**'], reason: 'documents the battery' }] } }));
    // The entry's glob matches no file, which no-dangling-references reports too.
    expect((await findings(dir)).map((line) => line.split(' ').slice(0, 3).join(' '))).toEqual([
      'skills/checking-merge-readiness/SKILL.md:31:5 names CMR_FIXTURE,',
      'tripwire.config.json:1:220 [no-dangling-references] glob',
    ]);
    configure(dir, (config) => ({ ...config, shipped: { ...config.shipped, allow: [{ token: 'CMR_FIXTURE', files: ['skills/checking-merge-readiness/SKILL.md'], reason: 'documents the battery' }] } }));
    expect(await findings(dir)).toEqual([]);
  });

  it('reports a configured test-only phrase in a shipped template', async () => {
    const dir = fixtureRepo('shipped/good');
    configure(dir, (config) => ({ ...config, shipped: { ...config.shipped, testTokens: ['battery mode'] } }));
    writeFiles(dir, { 'skills/drafting-release-notes/templates/notes.tmpl': '## {{version}}\n\nIn Battery Mode, skip the owner review.\n' });
    expect(await findings(dir)).toEqual([`skills/drafting-release-notes/templates/notes.tmpl:3:4 names 'battery mode', declared test-only in shipped.testTokens: ${SEAM}.`]);
  });
});

describe('no-test-carve-outs: test-runner detection in shipped source', () => {
  const repo = (source: string): string =>
    makeGitRepo({
      'tripwire.config.json': JSON.stringify({ tests: { include: ['test/**/*.test.ts'] }, shipped: { include: ['src/**/*.ts'] } }),
      'test/a.test.ts': 'import { test } from "vitest";\ntest("a", () => {});\n',
      'src/a.ts': source,
    });

  it('reports runner env vars, typeof probes, runner globals and in-checks', async () => {
    const lines = await findings(
      repo(`export const a = process.env.VITEST ? 1 : 2;
export const b = typeof describe !== 'undefined';
export const c = globalThis.__vitest_worker__ !== undefined;
export const d = 'JEST_WORKER_ID' in process.env;
export const e = import.meta.env.MODE === 'test';
`),
    );
    expect(lines.map((line) => line.slice(0, line.indexOf(' ')))).toEqual(['src/a.ts:1:18', 'src/a.ts:2:18', 'src/a.ts:3:18', 'src/a.ts:4:18', 'src/a.ts:5:18']);
    expect(lines.map((line) => /\(([^)]*)\)/.exec(line)?.[1])).toEqual(['VITEST', 'typeof describe', '__vitest_worker__', "'JEST_WORKER_ID' in env", "MODE === 'test'"]);
  });

  it('reports a shipped shell helper that reads a runner variable', async () => {
    const dir = makeGitRepo({
      'tripwire.config.json': JSON.stringify({ tests: { include: ['test/**/*.test.ts'] }, shipped: { include: ['bin/*'] } }),
      'test/a.test.ts': 'import { test } from "vitest";\ntest("a", () => {});\n',
      'bin/release': '#!/bin/sh\nif [ -n "${VITEST:-}" ]; then exit 0; fi\nnpm publish\n',
    });
    expect(await findings(dir)).toEqual([
      'bin/release:2:12 branches on test-runner detection ($VITEST): shipped code must behave the same under test. Inject the dependency the test needs to replace; an import.meta.vitest block is fine, the bundler strips it.',
    ]);
  });

  it('allows an in-source test block and an unrelated NODE_ENV check', async () => {
    expect(
      await findings(
        repo(`export const add = (a: number, b: number) => a + b;
export const dev = process.env.NODE_ENV !== 'production';
if (import.meta.vitest) {
  const { it, expect } = import.meta.vitest;
  it('adds', () => expect(add(1, 2)).toBe(3));
}
`),
      ),
    ).toEqual([]);
  });
});

describe('no-test-carve-outs: what each finding says, and where', () => {
  it('reports each kind at the read, string, path, name or word, with its message and where the tests use the variable (at most three places, sets first)', async () => {
    const dir = makeGitRepo({
      'tripwire.config.json': JSON.stringify({ preset: 'strict', tests: { include: ['tests/**/*.test.ts'] }, shipped: { include: ['src/**/*.ts', 'skills/**/SKILL.md', 'scripts/*.sh'], testTokens: ['battery mode'] } }),
      'tests/review.test.ts':
        "import { spawnSync } from 'node:child_process';\nimport { test } from 'vitest';\ntest('reviews', () => {\n  process.env.REVIEW_FIXTURE_DIR = 'tests/fixtures/specimens/green-pr';\n  spawnSync('sh', ['scripts/fetch.sh'], { env: { ...process.env, PATH: `tests/fixtures/bin:${process.env.PATH}` } });\n});\n",
      'tests/fixtures/bin/gh-stub-review': '#!/bin/sh\necho "$FAKE_GH_STATE"\necho "$FAKE_GH_STATE"\necho "$FAKE_GH_STATE"\necho "$FAKE_GH_STATE"\n',
      'tests/fixtures/specimens/green-pr/forge.json': '{}\n',
      'src/env.ts':
        "export const dir = process.env.REVIEW_FIXTURE_DIR;\nexport const names = ['REVIEW_FIXTURE_DIR'];\nexport const specimen = 'tests/fixtures/specimens/green-pr/forge.json';\nexport const underTest = process.env.NODE_ENV === 'test';\nexport const isJest = typeof jest !== 'undefined';\nexport const worker = globalThis.__vitest_worker__ !== undefined;\nexport const inEnv = 'JEST_WORKER_ID' in process.env;\nexport const fixtureInEnv = 'REVIEW_FIXTURE_DIR' in process.env;\nexport const vitest = process.env.VITEST;\nexport const knob = process.env.REVIEW_EVAL_MODE;\nexport const state = process.env.FAKE_GH_STATE;\n",
      'skills/review/SKILL.md':
        '# Review\n\nIf REVIEW_FIXTURE_DIR is set, read the change from it; REVIEW_FIXTURE_DIR wins.\n\nSee [the specimen](../../tests/fixtures/specimens/green-pr/forge.json) and `tests/fixtures/specimens/green-pr`.\n\nRun gh-stub-review when the green-pr case applies. In Battery Mode, skip the owner review.\n\n```sh\necho "$REVIEW_FIXTURE_DIR"\n```\n',
      'scripts/fetch.sh': '#!/bin/sh\nif [ -n "$REVIEW_FIXTURE_DIR" ]; then cat "$REVIEW_FIXTURE_DIR/change.diff"; fi\nif [ -n "${VITEST:-}" ]; then exit 0; fi\n',
    });
    const result = await check({ cwd: dir, cache: false, rules: ['no-test-carve-outs'] });
    const setInTest = [{ file: 'tests/review.test.ts', line: 4, column: 3, message: 'set here' }];
    const onlyTests = (verb: string, where: string): string =>
      `${verb} REVIEW_FIXTURE_DIR, an env var that only the tests and fixtures use (${where}): anyone who sets it gets the path the harness gets. Do not honour it in what ships; ${SEAM}, or list it in shipped.allow with a reason.`;
    const runner = (what: string): string => `branches on test-runner detection (${what}): shipped code must behave the same under test. Inject the dependency the test needs to replace; an import.meta.vitest block is fine, the bundler strips it.`;
    expect(result.findings.map((f) => ({ at: `${f.file}:${f.line}:${f.column}-${f.endLine}:${f.endColumn} ${f.messageId} ${f.severity}`, message: f.message, ...(f.related && { related: f.related }) }))).toEqual([
      { at: 'scripts/fetch.sh:2:11-2:29 testOnlyEnvVar error', message: onlyTests('reads', 'set at tests/review.test.ts:4'), related: setInTest },
      { at: 'scripts/fetch.sh:2:45-2:63 testOnlyEnvVar error', message: onlyTests('reads', 'set at tests/review.test.ts:4'), related: setInTest },
      { at: 'scripts/fetch.sh:3:12-3:18 runnerDetection error', message: runner('$VITEST') },
      { at: 'skills/review/SKILL.md:3:4-3:22 testOnlyEnvMention error', message: `${onlyTests('names', 'set at tests/review.test.ts:4')} Named 3 times in this file; this is the first.`, related: setInTest },
      {
        at: 'skills/review/SKILL.md:5:20-5:70 testOnlyPathMention error',
        message: `names ../../tests/fixtures/specimens/green-pr/forge.json (tests/fixtures/specimens/green-pr/forge.json), a path inside the test roots or fixtures: what ships must not depend on the harness. Remove it and ${SEAM}, or list it in shipped.allow with a reason.`,
      },
      {
        at: 'skills/review/SKILL.md:5:77-5:110 testOnlyPathMention error',
        message: `names tests/fixtures/specimens/green-pr, a path inside the test roots or fixtures: what ships must not depend on the harness. Remove it and ${SEAM}, or list it in shipped.allow with a reason.`,
      },
      {
        at: 'skills/review/SKILL.md:7:5-7:19 testOnlyNameMention error',
        message:
          "names 'gh-stub-review', a stub executable of the tests (tests/fixtures/bin/gh-stub-review) and nothing outside them: what ships must not know the harness's cases. Put the seam in the test environment (a stub first on PATH, a fixture) instead, or list it in shipped.allow with a reason.",
      },
      {
        at: 'skills/review/SKILL.md:7:29-7:37 testOnlyNameMention error',
        message:
          "names 'green-pr', a fixture specimen of the tests (tests/fixtures/specimens/green-pr) and nothing outside them: what ships must not know the harness's cases. Put the seam in the test environment (a stub first on PATH, a fixture) instead, or list it in shipped.allow with a reason.",
      },
      { at: 'skills/review/SKILL.md:7:55-7:67 testOnlyTokenMention error', message: `names 'battery mode', declared test-only in shipped.testTokens: ${SEAM}.` },
      { at: 'src/env.ts:1:20-1:50 testOnlyEnvVar error', message: onlyTests('reads', 'set at tests/review.test.ts:4'), related: setInTest },
      { at: 'src/env.ts:2:23-2:43 testOnlyEnvString error', message: onlyTests('names', 'set at tests/review.test.ts:4'), related: setInTest },
      {
        at: 'src/env.ts:3:25-3:71 testOnlyPath error',
        message: `names tests/fixtures/specimens/green-pr/forge.json, a path inside the test roots or fixtures: what ships must not depend on the harness. Remove it and ${SEAM}, or list it in shipped.allow with a reason.`,
      },
      { at: 'src/env.ts:4:26-4:57 runnerDetection error', message: runner("NODE_ENV === 'test'") },
      { at: 'src/env.ts:5:23-5:34 runnerDetection error', message: runner('typeof jest') },
      { at: 'src/env.ts:6:23-6:51 runnerDetection error', message: runner('__vitest_worker__') },
      { at: 'src/env.ts:7:22-7:53 runnerDetection error', message: runner("'JEST_WORKER_ID' in env") },
      { at: 'src/env.ts:8:29-8:64 testOnlyEnvVar error', message: onlyTests('reads', 'set at tests/review.test.ts:4'), related: setInTest },
      { at: 'src/env.ts:9:23-9:41 runnerDetection error', message: runner('VITEST') },
      {
        at: 'src/env.ts:10:21-10:49 harnessKnob error',
        message: `reads REVIEW_EVAL_MODE, an env var named like a harness knob that nothing sets or documents as a setting of the product and no test sets yet: a branch for the harness is a branch any caller can take. Document it as a user setting, remove it and ${SEAM}, or list it in shipped.allow with a reason.`,
      },
      {
        at: 'src/env.ts:11:22-11:47 testOnlyEnvVar error',
        message: `reads FAKE_GH_STATE, an env var that only the tests and fixtures use (read at tests/fixtures/bin/gh-stub-review:2): anyone who sets it gets the path the harness gets. Do not honour it in what ships; ${SEAM}, or list it in shipped.allow with a reason.`,
        related: [
          { file: 'tests/fixtures/bin/gh-stub-review', line: 2, column: 8, message: 'read here' },
          { file: 'tests/fixtures/bin/gh-stub-review', line: 3, column: 8, message: 'read here' },
          { file: 'tests/fixtures/bin/gh-stub-review', line: 4, column: 8, message: 'read here' },
        ],
      },
    ]);
  });
});

describe('no-test-carve-outs: a mention named many times is reported at its first place in the file', () => {
  it('at an earlier line found later (a fence before the prose); a harness knob read twice on one line is one warning, at the first read', async () => {
    const dir = makeGitRepo({
      'tripwire.config.json': JSON.stringify({ tests: { include: ['tests/**/*.test.ts'] }, shipped: { include: ['skills/**/SKILL.md', 'src/**/*.ts'] } }),
      'tests/review.test.ts': "import { test } from 'vitest';\ntest('reviews', () => {\n  process.env.REVIEW_FIXTURE_DIR = 'x';\n});\n",
      'skills/fence-first/SKILL.md': '# Review\n\n```sh\necho "$REVIEW_FIXTURE_DIR"\n```\n\nThe fence above reads REVIEW_FIXTURE_DIR; so does `REVIEW_FIXTURE_DIR`.\n',
      'src/columns.ts': 'export const get = () => process.env.APP_EVAL_MODE, now = process.env.APP_EVAL_MODE;\n',
    });
    const result = await check({ cwd: dir, cache: false, rules: ['no-test-carve-outs'] });
    expect(result.findings.map((f) => `${f.file}:${f.line}:${f.column}-${f.endColumn} ${f.messageId} ${f.severity} ${f.file.endsWith('.md') ? f.message : f.message.slice(f.message.indexOf(' Named'))}`)).toEqual([
      `skills/fence-first/SKILL.md:4:8-26 testOnlyEnvMention warn names REVIEW_FIXTURE_DIR, an env var that only the tests and fixtures use (set at tests/review.test.ts:3): anyone who sets it gets the path the harness gets. Do not honour it in what ships; ${SEAM}, or list it in shipped.allow with a reason. Named 3 times in this file; this is the first.`,
      'src/columns.ts:1:26-51 harnessKnob warn  Named 2 times in this file; this is the first.',
    ]);
  });
});

describe('no-test-carve-outs: where reporting stops', () => {
  it('leaves writes (shipped code, a shipped script) of a test-only variable or a runner variable, and a runner variable read in a Markdown fence, alone; reads a link without its anchor, skips an anchor-only link, and writes a path without its ./ and trailing slash as is', async () => {
    const dir = makeGitRepo({
      'tripwire.config.json': JSON.stringify({ preset: 'strict', tests: { include: ['tests/**/*.test.ts'] }, shipped: { include: ['src/**/*.ts', 'index.ts', 'skills/**/SKILL.md', 'scripts/*.sh'] } }),
      'tests/review.test.ts': "import { test } from 'vitest';\ntest('reviews', () => {\n  process.env.REVIEW_FIXTURE_DIR = 'tests/fixtures/specimens/green-pr';\n});\n",
      'tests/fixtures/specimens/green-pr/forge.json': '{}\n',
      'scripts/setup.sh': '#!/bin/sh\nexport REVIEW_FIXTURE_DIR=/tmp/x\nVITEST= ./run\n',
      'src/reset.ts': "export function reset() {\n  process.env.REVIEW_FIXTURE_DIR = '';\n  process.env.VITEST = '';\n}\n",
      'index.ts': "export const specimen = './tests/fixtures/specimens/green-pr/';\nexport const plain = 'tests/fixtures/specimens/green-pr';\n",
      'skills/review/SKILL.md': '# Review\n\n```sh\nif [ -n "$VITEST" ]; then echo under test; fi\n```\n\nSee [the specimen](../../tests/fixtures/specimens/green-pr/forge.json#top) and [the tests](#tests).\n\n## Tests\n',
    });
    const result = await check({ cwd: dir, cache: false, rules: ['no-test-carve-outs'] });
    expect(result.findings.map((f) => `${f.file}:${f.line}:${f.column}-${f.endColumn} ${f.messageId} ${f.message}`)).toEqual([
      `index.ts:1:25-63 testOnlyPath names ./tests/fixtures/specimens/green-pr/, a path inside the test roots or fixtures: what ships must not depend on the harness. Remove it and ${SEAM}, or list it in shipped.allow with a reason.`,
      `index.ts:2:22-57 testOnlyPath names tests/fixtures/specimens/green-pr, a path inside the test roots or fixtures: what ships must not depend on the harness. Remove it and ${SEAM}, or list it in shipped.allow with a reason.`,
      `skills/review/SKILL.md:7:20-70 testOnlyPathMention names ../../tests/fixtures/specimens/green-pr/forge.json (tests/fixtures/specimens/green-pr/forge.json), a path inside the test roots or fixtures: what ships must not depend on the harness. Remove it and ${SEAM}, or list it in shipped.allow with a reason.`,
    ]);
  });
});

describe('no-test-carve-outs: prose, plain text and what it cannot read', () => {
  it('reports a test-only variable named in a plain-text template and a test path inside a prose sentence; not a variable in a shell fence comment, a specimen name as a link anchor or as the head of a path, a probe of another variable, a path outside the tests; a shipped file too large to read is the read-error alone', async () => {
    const dir = makeGitRepo({
      'tripwire.config.json': JSON.stringify({ tests: { include: ['tests/**/*.test.ts'] }, shipped: { include: ['src/**/*.ts', 'skills/**/SKILL.md', 'templates/*.txt'] }, limits: { maxFileBytes: 400 } }),
      'tests/review.test.ts': "import { test } from 'vitest';\ntest('reviews', () => {\n  process.env.REVIEW_FIXTURE_DIR = 'tests/fixtures/specimens/green-pr';\n});\n",
      'tests/fixtures/specimens/green-pr/forge.json': '{}\n',
      'templates/notes.txt': 'Set REVIEW_FIXTURE_DIR to replay a recorded review.\n',
      'skills/review/SKILL.md': '# Review\n\nRead tests/fixtures/specimens/green-pr/forge.json first.\n\nSee [the case](#green-pr) and green-pr/notes.\n\n```sh\n# REVIEW_FIXTURE_DIR is for the tests only\ngh pr view\n```\n',
      'src/probe.ts': "export const has = 'HOME_DIR_X' in process.env;\nexport const guide = 'docs/guide.md';\n",
      'src/rows.ts': `export const rows = [\n${'  "row",\n'.repeat(60)}];\n`,
    });
    const result = await check({ cwd: dir, cache: false, rules: ['no-test-carve-outs'] });
    expect(result.findings.map((f) => `${f.file}:${f.line}:${f.column}-${f.endColumn} ${f.ruleId} ${f.messageId} ${f.message.slice(0, f.message.indexOf(','))}`)).toEqual([
      'skills/review/SKILL.md:3:6-50 no-test-carve-outs testOnlyPathMention names tests/fixtures/specimens/green-pr/forge.json',
      'src/rows.ts:1:1-1 read-error fileTooLarge src/rows.ts is 565 bytes',
      'templates/notes.txt:1:5-23 no-test-carve-outs testOnlyEnvMention names REVIEW_FIXTURE_DIR',
    ]);
  });
});

describe('no-test-carve-outs --base: a harness knob the diff adds', () => {
  it('is newHarnessKnob in a new file and where the diff adds the first read of it to a file, and stays harnessKnob where the file read it at the base', async () => {
    const dir = makeGitRepo({
      'tripwire.config.json': JSON.stringify({ tests: { include: ['tests/**/*.test.ts'] }, shipped: { include: ['src/**/*.ts'] } }),
      'tests/a.test.ts': "import { test } from 'vitest';\ntest('a', () => {});\n",
      'src/publish.ts': 'export const publish = () => true;\n',
      'src/old.ts': 'export const dry = process.env.APP_EVAL_DRY;\n',
    });
    writeFiles(dir, {
      'src/publish.ts': 'export const publish = () => process.env.APP_EVAL_SKIP !== "1";\n',
      'src/old.ts': 'export const dry = process.env.APP_EVAL_DRY;\nexport const also = 1;\n',
      'src/added.ts': 'export const fake = process.env.APP_FAKE_FORGE;\n',
    });
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'knobs');
    const result = await check({ cwd: dir, cache: false, base: 'HEAD~1', rules: ['no-test-carve-outs'] });
    expect(result.findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.messageId} ${f.severity} ${f.message.slice(0, f.message.indexOf(','))}`)).toEqual([
      'src/added.ts:1:21 newHarnessKnob error this diff adds a read of APP_FAKE_FORGE',
      'src/old.ts:1:20 harnessKnob warn reads APP_EVAL_DRY',
      'src/publish.ts:1:30 newHarnessKnob error this diff adds a read of APP_EVAL_SKIP',
    ]);
  });
});
