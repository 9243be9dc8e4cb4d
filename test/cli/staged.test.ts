import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureRepo } from '../support/fixture-repo.js';
import { git, makeGitRepo, runCli, writeFiles } from '../support/repo.js';

const CONFIG = '{ "tests": { "include": ["test/**/*.test.ts"] } }';
const CLEAN_TEST = `import { format } from './helpers/format.js';\nformat('a');\n`;

function findings(dir: string, ...args: string[]): string[] {
  const run = runCli(['check', '--staged', '--format', 'json', ...args], dir);
  expect(run.stderr).toBe('');
  return JSON.parse(run.stdout).findings.map((f: { ruleId: string; file: string; line: number }) => `${f.ruleId} ${f.file}:${f.line}`);
}

describe('tripwire check --staged', () => {
  it('checks the index: a violation only in the unstaged part of a file is not reported', () => {
    const dir = makeGitRepo({ 'tripwire.config.json': CONFIG, 'test/a.test.ts': CLEAN_TEST, 'test/helpers/format.ts': 'export const format = (s: string) => s;\n' });
    writeFileSync(join(dir, 'test/a.test.ts'), `${CLEAN_TEST}// staged comment\n`);
    git(dir, 'add', 'test/a.test.ts');
    writeFileSync(join(dir, 'test/a.test.ts'), `import OpenAI from 'openai';\n${CLEAN_TEST}// staged comment\n`);
    expect(findings(dir)).toEqual([]);
    // The work tree does have it: a plain check sees it.
    expect(runCli(['check'], dir).code).toBe(1);
  });

  it('reports a violation that exists only in the staged part', () => {
    const dir = makeGitRepo({ 'tripwire.config.json': CONFIG, 'test/a.test.ts': CLEAN_TEST, 'test/helpers/format.ts': 'export const format = (s: string) => s;\n' });
    writeFileSync(join(dir, 'test/a.test.ts'), `import OpenAI from 'openai';\n${CLEAN_TEST}`);
    git(dir, 'add', 'test/a.test.ts');
    writeFileSync(join(dir, 'test/a.test.ts'), CLEAN_TEST);
    expect(findings(dir)).toEqual(['no-paid-calls-in-free-tests test/a.test.ts:1']);
  });

  it('reports a finding in an unchanged test when the staged change is the helper it imports', () => {
    const dir = makeGitRepo({ 'tripwire.config.json': CONFIG, 'test/a.test.ts': CLEAN_TEST, 'test/b.test.ts': 'export const b = 1;\n', 'test/helpers/format.ts': 'export const format = (s: string) => s;\n' });
    writeFileSync(join(dir, 'test/helpers/format.ts'), `import { execSync } from 'node:child_process';\nexport const format = (s: string) => execSync(\`claude -p \${s}\`).toString();\n`);
    git(dir, 'add', 'test/helpers/format.ts');
    expect(findings(dir)).toEqual(['no-paid-calls-in-free-tests test/a.test.ts:1']);
  });

  it('leaves out findings the staged change cannot affect', () => {
    const dir = makeGitRepo({ 'tripwire.config.json': CONFIG, 'test/old.test.ts': `import OpenAI from 'openai';\n`, 'test/b.test.ts': 'export const b = 1;\n' });
    writeFileSync(join(dir, 'test/b.test.ts'), 'export const b = 2;\n');
    git(dir, 'add', 'test/b.test.ts');
    expect(findings(dir)).toEqual([]);
    expect(runCli(['check'], dir).code).toBe(1);
  });

  it('works in a repository with no commits yet', () => {
    const dir = makeGitRepo({ 'tripwire.config.json': CONFIG, 'test/a.test.ts': `import OpenAI from 'openai';\n` }, { commit: false });
    git(dir, 'add', '-A');
    expect(findings(dir)).toEqual(['no-paid-calls-in-free-tests test/a.test.ts:1']);
  });

  it('works in a linked worktree, on that worktree’s own index', () => {
    const dir = makeGitRepo({ 'tripwire.config.json': CONFIG, 'test/a.test.ts': CLEAN_TEST, 'test/helpers/format.ts': 'export const format = (s: string) => s;\n' });
    const linked = `${dir}-linked`;
    git(dir, 'worktree', 'add', '-q', '-b', 'side', linked);
    writeFileSync(join(linked, 'test/a.test.ts'), `import OpenAI from 'openai';\n${CLEAN_TEST}`);
    git(linked, 'add', 'test/a.test.ts');
    expect(findings(linked)).toEqual(['no-paid-calls-in-free-tests test/a.test.ts:1']);
    expect(findings(dir)).toEqual([]);
  });

  it('accepts the file list lint-staged passes, and still reports a test that a staged helper broke', () => {
    const dir = makeGitRepo({ 'tripwire.config.json': CONFIG, 'test/a.test.ts': CLEAN_TEST, 'test/helpers/format.ts': 'export const format = (s: string) => s;\n' });
    writeFileSync(join(dir, 'test/helpers/format.ts'), `import OpenAI from 'openai';\nexport const format = (s: string) => new OpenAI() && s;\n`);
    git(dir, 'add', '-A');
    expect(findings(dir, join(dir, 'test/helpers/format.ts'))).toEqual(['no-paid-calls-in-free-tests test/a.test.ts:1']);
  });
});

describe('tripwire check --staged with touchfile maps', () => {
  const MAP = 'test/helpers/touchfiles.ts';

  function withOrphanKey(): string {
    const dir = fixtureRepo('maps/good');
    const map = readFileSync(join(dir, MAP), 'utf8');
    writeFileSync(join(dir, MAP), map.replace('  ...SEARCH_TOUCHFILES,\n', "  ...SEARCH_TOUCHFILES,\n  'retired-eval': ['src/qa/**'],\n"));
    git(dir, 'commit', '-q', '-am', 'an orphan key');
    return dir;
  }

  it('does not report a map finding when the staged change only adds a file no map glob matches', () => {
    const dir = withOrphanKey();
    writeFiles(dir, { 'docs/notes.md': '# Notes\n' });
    git(dir, 'add', 'docs/notes.md');
    expect(findings(dir)).toEqual([]);
  });

  it('reports the map finding when the staged change edits the map', () => {
    const dir = withOrphanKey();
    writeFileSync(join(dir, MAP), `${readFileSync(join(dir, MAP), 'utf8')}// edited\n`);
    git(dir, 'add', MAP);
    expect(findings(dir)).toEqual([`tiers-cover-paid-tests ${MAP}:31`, `touchfiles-cover-paid-tests ${MAP}:31`]);
  });

  it('reports the map finding when the staged change adds a file a map glob matches', () => {
    const dir = withOrphanKey();
    writeFiles(dir, { 'src/qa/extra.ts': 'export const extra = 1;\n' });
    git(dir, 'add', 'src/qa/extra.ts');
    expect(findings(dir)).toEqual([`tiers-cover-paid-tests ${MAP}:31`, `touchfiles-cover-paid-tests ${MAP}:31`]);
  });
});
