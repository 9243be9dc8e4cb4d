import { describe, expect, it } from 'vitest';
import { buildModel } from '../../src/engine/index.js';
import { shippedFiles, testAreas, testVocabulary } from '../../src/analysis/seams.js';
import { testPathOf } from '../../src/analysis/text-scan.js';
import { makeGitRepo } from '../support/repo.js';

async function model(files: Record<string, string>) {
  return (await buildModel({ cwd: makeGitRepo(files), cache: false })).model;
}

const CATALOG = {
  'tripwire.config.json': JSON.stringify({ tests: { include: ['tests/**/*.test.ts', 'src/**/*.test.ts'] }, shipped: { include: ['skills/**/SKILL.md', 'src/**/*.ts', 'skills/*/scripts/*'] } }),
  'skills/review/SKILL.md': '# Review\n',
  'skills/review/scripts/collect.sh': '#!/bin/sh\ngit diff "$REVIEW_BASE"\n',
  'src/review.ts': 'export const model = process.env.REVIEW_MODEL ?? "sonnet";\n',
  'src/review.test.ts': 'import { test } from "vitest";\ntest("x", () => {});\n',
  'tests/review/cases/review.test.ts': `import { spawnSync } from 'node:child_process';
spawnSync('review', [], { env: { ...process.env, REVIEW_FIXTURE: 'x', REVIEW_MODEL: 'haiku', REVIEW_BASE: 'main', PATH: 'bin', ANTHROPIC_API_KEY: 'k' } });
`,
  'tests/review/fixtures/bin/git': '#!/usr/bin/env bash\ncat "$REVIEW_FIXTURE/change.diff"\n[ -n "$REVIEW_BASE" ] && echo "$HOME"\n',
  'tests/review/fixtures/bin/gh': 'import os\nprint(os.environ.get("REVIEW_GH_LOG"))\n',
  'tests/review/fixtures/specimens/small/change.diff': '+ a\n',
  'scripts/run-battery.sh': '#!/bin/sh\nREVIEW_BATTERY=1 vitest run\n',
};

describe('test areas', () => {
  it('roots the tests at the top-most directory without shipped files; a colocated test is test-only alone', async () => {
    const m = await model(CATALOG);
    const areas = testAreas(m);
    expect(areas.roots).toEqual(['tests']);
    expect(areas.isTestOnly('src/review.test.ts')).toBe(true);
    expect(areas.isTestOnly('src/review.ts')).toBe(false);
    expect(areas.isTestOnly('tests/review/fixtures/bin/git')).toBe(true);
    expect(areas.paths.has('tests/review/fixtures/bin')).toBe(true);
    expect(areas.paths.has('tests')).toBe(false);
    expect(areas.paths.has('src')).toBe(false);
    expect([...areas.stubs.keys()]).toEqual(['gh', 'git']);
    expect(shippedFiles(m)).toEqual(['skills/review/SKILL.md', 'skills/review/scripts/collect.sh', 'src/review.ts']);
  });

  it('matches test paths from the root, from the file, and by a fixture or bin/<stub> tail', async () => {
    const m = await model(CATALOG);
    expect(testPathOf(m, 'tests/review/fixtures/specimens/small', 'skills/review/SKILL.md')).toBe('tests/review/fixtures/specimens/small');
    expect(testPathOf(m, '../../tests/review/cases/review.test.ts', 'skills/review/SKILL.md')).toBe('tests/review/cases/review.test.ts');
    expect(testPathOf(m, 'fixtures/bin/git', 'skills/review/SKILL.md')).toBe('tests/review/fixtures/bin/git');
    expect(testPathOf(m, 'bin/gh', 'skills/review/SKILL.md')).toBe('tests/review/fixtures/bin/gh');
    expect(testPathOf(m, 'src/review.ts', 'skills/review/SKILL.md')).toBeNull();
    expect(testPathOf(m, 'tests/', 'skills/review/SKILL.md')).toBeNull();
    expect(testPathOf(m, 'review/cases', 'skills/review/SKILL.md')).toBeNull();
    expect(testPathOf(m, 'tests/review/fixtures/**/*.diff', 'skills/review/SKILL.md')).toBe('tests/review/fixtures/**/*.diff');
    expect(testPathOf(m, '**/*.diff', 'skills/review/SKILL.md')).toBeNull();
  });
});

describe('the test-seam vocabulary', () => {
  it('holds env vars only tests and stubs use, in any language, with where the tests set them first', async () => {
    const vocabulary = testVocabulary(await model(CATALOG));
    expect([...vocabulary.env.keys()].sort()).toEqual(['REVIEW_BASE', 'REVIEW_FIXTURE', 'REVIEW_GH_LOG', 'REVIEW_MODEL']);
    expect(vocabulary.env.get('REVIEW_FIXTURE')?.map((use) => `${use.op} ${use.file}:${use.loc.line}:${use.loc.column}`)).toEqual([
      'set tests/review/cases/review.test.ts:2:50',
      'read tests/review/fixtures/bin/git:2:7',
    ]);
  });

  it('keeps a variable only the tests set even when shipped code reads it: that read is the carve-out', async () => {
    const vocabulary = testVocabulary(await model(CATALOG));
    expect(vocabulary.env.get('REVIEW_MODEL')?.map((use) => `${use.op} ${use.file}`)).toEqual(['set tests/review/cases/review.test.ts']);
    expect(vocabulary.env.has('PATH')).toBe(false);
    expect(vocabulary.env.has('HOME')).toBe(false);
    expect(vocabulary.env.has('ANTHROPIC_API_KEY')).toBe(false);
    // scripts/ neither ships nor is a test area: what it sets is nobody's seam.
    expect(vocabulary.env.has('REVIEW_BATTERY')).toBe(false);
  });

  it('leaves out what the repository documents for users, what shipped text sets, credentials and shell variables', async () => {
    const vocabulary = testVocabulary(
      await model({
        ...CATALOG,
        'README.md': '# Review\n\nThe model is chosen with REVIEW_MODEL.\n',
        'skills/review/SKILL.md': '# Review\n\nSet `REVIEW_BASE` to review against another branch.\n\n```sh\nexport REVIEW_GH_LOG=/tmp/gh.log\n```\n',
        'tests/review/cases/token.test.ts': "process.env.REVIEW_SERVICE_TOKEN = 'fake';\nprocess.env.BASH_ENV = 'x';\nprocess.env.CLAUDE_CONFIG_DIR = '/tmp/c';\nprocess.env.REVIEW_OPEN_CMD = 'true';\n",
        'src/open.ts': '// Override the opener with REVIEW_OPEN_CMD.\nexport const opener = process.env.REVIEW_OPEN_CMD;\n',
      }),
    );
    expect([...vocabulary.env.keys()].sort()).toEqual(['REVIEW_FIXTURE']);
  });

  it("leaves out the settings of model vendors and cloud platforms, which their own tools define, and keeps the harness's own", async () => {
    const vocabulary = testVocabulary(
      await model({
        ...CATALOG,
        'tests/review/cases/endpoint.test.ts': "process.env.OPENAI_BASE_URL = 'http://localhost';\nprocess.env.AWS_REGION = 'x';\nprocess.env.REVIEW_ENDPOINT = 'y';\n",
        'src/endpoint.ts': 'export const endpoint = [process.env.OPENAI_BASE_URL, process.env.AWS_REGION, process.env.REVIEW_ENDPOINT];\n',
      }),
    );
    expect([...vocabulary.env.keys()].filter((name) => !['REVIEW_BASE', 'REVIEW_FIXTURE', 'REVIEW_GH_LOG', 'REVIEW_MODEL'].includes(name))).toEqual(['REVIEW_ENDPOINT']);
  });

  it('does not take what a CI workflow sets for a test-side definition, even where a workflow test makes .github a test area', async () => {
    const config = JSON.parse(CATALOG['tripwire.config.json']);
    const vocabulary = testVocabulary(
      await model({
        ...CATALOG,
        'tripwire.config.json': JSON.stringify({ ...config, tests: { include: [...config.tests.include, '.github/actions/*/test.js'] } }),
        '.github/actions/label/test.js': "process.env.REVIEW_LABEL_CASE = '1';\n",
        '.github/workflows/backport.yml': 'env:\n  REVIEW_NAME: x\n',
        'src/label.ts': 'export const label = [process.env.REVIEW_NAME, process.env.REVIEW_LABEL_CASE];\n',
      }),
    );
    expect(vocabulary.env.has('REVIEW_NAME')).toBe(false);
    expect(vocabulary.env.has('REVIEW_LABEL_CASE')).toBe(true);
  });

  it('does not take copies or renderings of shipped files under the tests for test-side uses', async () => {
    const vocabulary = testVocabulary(
      await model({
        ...CATALOG,
        'tests/review/golden/skills/review/SKILL.md': '```sh\nREVIEW_RENDERED=1 review\n```\n',
        'tests/review/fixtures/copy/review/SKILL.md': '```sh\nREVIEW_COPIED=1 review\n```\n',
        'tests/review/fixtures/own/notes.md': '```sh\nREVIEW_OWN=1 review\n```\n',
      }),
    );
    expect(vocabulary.env.has('REVIEW_RENDERED')).toBe(false);
    expect(vocabulary.env.has('REVIEW_COPIED')).toBe(false);
    expect(vocabulary.env.has('REVIEW_OWN')).toBe(true);
  });
});
