import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeGitRepo, runCli } from '../support/repo.js';

const CONFIG = '{ "tests": { "include": ["test/**/*.test.ts"] } }';

describe('the baseline', () => {
  it('keeps known findings quiet across line shifts, reports a new one, and says when it can shrink', () => {
    const dir = makeGitRepo({
      'tripwire.config.json': CONFIG,
      'test/a.test.ts': `import OpenAI from 'openai';\n`,
      'test/b.test.ts': `import Anthropic from '@anthropic-ai/sdk';\n`,
      'test/c.test.ts': `const key = process.env.OPENAI_API_KEY;\n`,
    });
    const update = runCli(['check', '--update-baseline'], dir);
    expect(update.code).toBe(0);
    expect(update.stdout).toContain('baseline written: 3 entries');
    const baseline = JSON.parse(readFileSync(join(dir, '.tripwire/baseline.json'), 'utf8'));
    expect(baseline.version).toBe(2);
    expect(baseline.findings.map((f: { ruleId: string; messageId: string; file: string; count: number }) => `${f.ruleId} ${f.messageId} ${f.file} ${f.count}`)).toEqual([
      'no-paid-calls-in-free-tests paidImport test/a.test.ts 1',
      'no-paid-calls-in-free-tests paidImport test/b.test.ts 1',
      'no-paid-calls-in-free-tests paidCall test/c.test.ts 1',
    ]);

    // An unrelated edit above a finding shifts its line: still known.
    writeFileSync(join(dir, 'test/a.test.ts'), `// setup\n\nimport OpenAI from 'openai';\n`);
    const shifted = runCli(['check'], dir);
    expect(shifted.code).toBe(0);
    expect(shifted.stdout).toContain('3 known findings in the baseline not reported');

    // A fourth violation is new.
    writeFileSync(join(dir, 'test/d.test.ts'), `import { GoogleGenAI } from '@google/genai';\n`);
    const fourth = runCli(['check', '--format', 'json'], dir);
    expect(fourth.code).toBe(1);
    const output = JSON.parse(fourth.stdout);
    expect(output.findings.map((f: { file: string; line: number }) => `${f.file}:${f.line}`)).toEqual(['test/d.test.ts:1']);
    expect(output.summary.baselined).toBe(3);

    // Fixing a known one: the baseline can shrink.
    writeFileSync(join(dir, 'test/c.test.ts'), `const key = 'fake';\n`);
    const fixed = runCli(['check'], dir);
    expect(fixed.stdout).toContain('1 baseline entry no longer match: the baseline can shrink');
    expect(runCli(['check', '--no-baseline', '--format', 'json'], dir).stdout).toContain('test/a.test.ts');
  });

  it('still reads a version 1 baseline, whose entries name no message id', () => {
    const dir = makeGitRepo({ 'tripwire.config.json': CONFIG, 'test/a.test.ts': `import OpenAI from 'openai';\n` });
    expect(runCli(['check', '--update-baseline'], dir).code).toBe(0);
    const path = join(dir, '.tripwire/baseline.json');
    const written = JSON.parse(readFileSync(path, 'utf8'));
    const v1 = { version: 1, findings: written.findings.map((entry: Record<string, unknown>) => Object.fromEntries(Object.entries(entry).filter(([key]) => key !== 'messageId'))) };
    writeFileSync(path, JSON.stringify(v1));
    const run = runCli(['check'], dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('1 known finding in the baseline not reported');
  });

  it('exits 2 on a baseline file that is not valid', () => {
    const dir = makeGitRepo({ 'tripwire.config.json': CONFIG, '.tripwire/baseline.json': '{ "version": 9 }' });
    const run = runCli(['check'], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('.tripwire/baseline.json');
  });
});
