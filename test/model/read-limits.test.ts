import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, run } from '../../src/engine/index.js';
import { git, makeGitRepo, runCli } from '../support/repo.js';

const CONFIG = JSON.stringify({ tests: { include: ['test/**/*.test.ts'] }, shipped: { include: ['skills/**/SKILL.md'] } });
const SHIPPED_ONLY = JSON.stringify({ shipped: { include: ['skills/**/*.md'] } });

/** A generated TS module of at least `bytes` bytes: one exported array of rows. */
function generated(bytes: number): string {
  const row = '  { id: 12345, name: "generated-row", tags: ["a", "b", "c"], value: 3.14159 },\n';
  return `export const rows = [\n${row.repeat(Math.ceil(bytes / row.length))}];\n`;
}

function lines(findings: { ruleId: string; messageId: string; file: string; line: number; column: number; message: string }[]): string[] {
  return findings.map((f) => `${f.ruleId}/${f.messageId} ${f.file}:${f.line}:${f.column} ${f.message}`);
}

describe('limits.maxFileBytes', () => {
  it('leaves a file over the default 2 MiB unread, as one read-error at the file, and checks the rest', async () => {
    // A 50 MB generated file took 52 s and 2.5 GiB: nothing bounded what one file could cost.
    const dir = makeGitRepo({
      'tripwire.config.json': CONFIG,
      'skills/review/SKILL.md': '# Review\n',
      'test/fixtures/rows.ts': generated(3 * 1024 * 1024),
      'test/rows.test.ts': "import { test } from 'vitest';\nimport { rows } from './fixtures/rows.js';\ntest('rows', () => rows);\n",
      'test/chat.test.ts': "import OpenAI from 'openai';\nnew OpenAI();\n",
    });
    const result = await run({ cwd: dir, cache: false });
    expect(lines(result.findings)).toEqual([
      "no-paid-calls-in-free-tests/paidImport test/chat.test.ts:1:1 free test imports the model SDK 'openai': test/chat.test.ts → openai. Move it under a paid test root, use `import type`, or mock the module.",
      'read-error/fileTooLarge test/fixtures/rows.ts:1:1 test/fixtures/rows.ts is 3.0 MiB, over limits.maxFileBytes (2.0 MiB): it was not read, so nothing in it was checked. List it in ignore if it is generated, or raise limits.maxFileBytes.',
    ]);
    // Two test files and the two small files: the large one was never parsed.
    expect(result.model.stats.parsed).toBe(3);
  });

  it('is configurable: one byte over it is reported, at it is read, for scripts and Markdown alike', async () => {
    const files = {
      'tripwire.config.json': JSON.stringify({ tests: { include: ['test/**/*.test.ts'] }, shipped: { include: ['skills/**/SKILL.md'] }, limits: { maxFileBytes: 1000 } }),
      'skills/review/SKILL.md': `# Review\n\n${'x'.repeat(990)}\n`,
      'skills/triage/SKILL.md': `# Triage\n\n${'x'.repeat(989)}\n`,
      'test/over.test.ts': `// ${'x'.repeat(997)}\n`,
      'test/at.test.ts': `// ${'x'.repeat(996)}\n`,
    };
    expect(Buffer.byteLength(files['test/at.test.ts'])).toBe(1000);
    expect(Buffer.byteLength(files['skills/triage/SKILL.md'])).toBe(1000);
    const { findings } = await check({ cwd: makeGitRepo(files), cache: false });
    expect(findings.map((f) => `${f.messageId} ${f.file}`)).toEqual(['fileTooLarge skills/review/SKILL.md', 'fileTooLarge test/over.test.ts']);
  });

  it('still hashes a locked fixture larger than the limit, in chunks, so that its lock holds and a change to it is found', async () => {
    const fixture = 'y'.repeat(5000);
    const locks = (text: string): string => JSON.stringify({ version: 1, files: { 'test/fixtures/big.txt': `sha256:${createHash('sha256').update(text).digest('hex')}` } });
    const files = {
      'tripwire.config.json': JSON.stringify({ tests: { include: ['test/**/*.test.ts'] }, limits: { maxFileBytes: 1000 } }),
      'test/a.test.ts': "import { test } from 'vitest';\ntest('a', () => {});\n",
      'test/fixtures/big.txt': fixture,
    };
    expect((await check({ cwd: makeGitRepo({ ...files, '.tripwire/locks.json': locks(fixture) }), cache: false })).findings).toEqual([]);
    const changed = await check({ cwd: makeGitRepo({ ...files, '.tripwire/locks.json': locks(`${fixture}.`) }), cache: false });
    expect(changed.findings.map((f) => `${f.ruleId}/${f.messageId} ${f.file}`)).toEqual(['no-weakened-frozen-tests/lockedFileChanged test/fixtures/big.txt']);
  });
});

describe('limits.maxFileBytes on the other sides of a diff', () => {
  const config = JSON.stringify({ tests: { include: ['test/**/*.test.ts'] }, limits: { maxFileBytes: 1000 } });
  const small = "export const rows = [];\n";

  it('with --base, a changed file over the limit at the merge base is its size only: one fileTooLarge there, never read', async () => {
    const dir = makeGitRepo({ 'tripwire.config.json': config, 'test/a.test.ts': "import { test } from 'vitest';\nimport { rows } from './rows.js';\ntest('a', () => rows);\n", 'test/rows.ts': generated(3000) });
    git(dir, 'checkout', '-q', '-b', 'trim');
    writeFileSync(join(dir, 'test/rows.ts'), small);
    git(dir, 'commit', '-q', '-am', 'trim the rows');
    const result = await run({ cwd: dir, cache: false, base: 'main' });
    expect(lines(result.findings)).toEqual([
      'read-error/fileTooLarge test/rows.ts:1:1 test/rows.ts at the merge base is 3.0 KiB, over limits.maxFileBytes (1000 bytes): it was not read, so nothing in it was checked. List it in ignore if it is generated, or raise limits.maxFileBytes.',
    ]);
    // Under the limit at the base: read, and nothing to say.
    const within = makeGitRepo({ 'tripwire.config.json': config, 'test/a.test.ts': "import { test } from 'vitest';\nimport { rows } from './rows.js';\ntest('a', () => rows);\n", 'test/rows.ts': generated(500) });
    git(within, 'checkout', '-q', '-b', 'trim');
    writeFileSync(join(within, 'test/rows.ts'), small);
    git(within, 'commit', '-q', '-am', 'trim the rows');
    expect((await run({ cwd: within, cache: false, base: 'main' })).findings).toEqual([]);
  });

  it('with --staged, a staged file over the limit whose work tree differs is its size only: one fileTooLarge, never read, and its exports are not taken for removed', async () => {
    const dir = makeGitRepo({ 'tripwire.config.json': config, 'test/a.test.ts': "import { test } from 'vitest';\nimport { rows } from './rows.js';\ntest('a', () => rows);\n", 'test/rows.ts': small });
    writeFileSync(join(dir, 'test/rows.ts'), generated(3000));
    git(dir, 'add', 'test/rows.ts');
    writeFileSync(join(dir, 'test/rows.ts'), small);
    const result = await run({ cwd: dir, cache: false, staged: true });
    expect(lines(result.findings)).toEqual([
      'read-error/fileTooLarge test/rows.ts:1:1 test/rows.ts is 3.0 KiB, over limits.maxFileBytes (1000 bytes): it was not read, so nothing in it was checked. List it in ignore if it is generated, or raise limits.maxFileBytes.',
    ]);
  });
});

describe('files that never end', () => {
  it('never reads a tracked symlink to /dev/zero: it leaves the repository, and is one unfollowed-symlink finding', () => {
    const dir = makeGitRepo({ 'tripwire.config.json': SHIPPED_ONLY, 'skills/review/SKILL.md': '# Review\n' }, { commit: false });
    symlinkSync('/dev/zero', join(dir, 'skills/zero.md'));
    symlinkSync('zero.md', join(dir, 'skills/SKILL.md'));
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'links');
    const cli = runCli(['check', '--format', 'json', '--no-cache'], dir, {}, { killAfterMs: 60_000 });
    expect(lines(JSON.parse(cli.stdout || '{"findings":[]}').findings)).toEqual([
      'unfollowed-symlink/unfollowedSymlink skills/SKILL.md:1:1 symlink points outside the repository, not followed: skills/SKILL.md → zero.md. Nothing it points to was checked; commit the file itself, or list the link in ignore.',
      'unfollowed-symlink/unfollowedSymlink skills/zero.md:1:1 symlink points outside the repository, not followed: skills/zero.md → /dev/zero. Nothing it points to was checked; commit the file itself, or list the link in ignore.',
    ]);
  });

  it('refuses a configuration file that is a symlink to a device: exit 2 naming it, nothing read', () => {
    const dir = makeGitRepo({ 'skills/review/SKILL.md': '# Review\n' }, { commit: false });
    symlinkSync('/dev/zero', join(dir, 'tripwire.config.json'));
    const cli = runCli(['check', '--no-cache'], dir, {}, { killAfterMs: 60_000 });
    expect(cli).toEqual({ code: 2, stdout: '', stderr: 'tripwire: invalid configuration\ntripwire.config.json: cannot read: not a regular file\n' });
  });

  it('never waits on a named pipe a tracked symlink inside the repository points to: one read-error, not a hang', () => {
    // The pipe is not tracked (git cannot track one), but a checkout can hold one where a tracked link
    // points. Reading it waited for a writer forever; the kill is only a safety net for that code.
    const dir = makeGitRepo({ 'tripwire.config.json': SHIPPED_ONLY, 'skills/review/SKILL.md': '# Review\n', '.gitignore': 'pipe\n' }, { commit: false });
    mkdirSync(join(dir, 'skills/piped'));
    symlinkSync('../../pipe', join(dir, 'skills/piped/SKILL.md'));
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'links');
    execFileSync('mkfifo', [join(dir, 'pipe')]);
    const cli = runCli(['check', '--format', 'json', '--no-cache'], dir, {}, { killAfterMs: 60_000 });
    expect(lines(JSON.parse(cli.stdout || '{"findings":[]}').findings)).toEqual(['read-error/readError skills/piped/SKILL.md:1:1 cannot read skills/piped/SKILL.md: not a regular file']);
  });
});
