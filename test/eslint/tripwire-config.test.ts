import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import tripwire from '../../src/index.js';
import { resetModels } from '../../src/eslint/adapter.js';
import { git, makeGitRepo, runCli } from '../support/repo.js';

// What tripwire.config.json switches off, and what the baseline knows, is
// what both surfaces leave out; a rule it sets to "warn" is a warning in the
// CLI and, in ESLint, reported at the severity the ESLint config gives it.

const REPO = {
  'tripwire.config.json': JSON.stringify({
    tests: { include: ['test/**/*.test.ts'] },
    removed: [{ id: 'stipulation', tokens: ['STIPULATE_FIXTURES'], why: 'the judge always fetches' }],
    rules: { 'no-dangling-references': 'off', 'no-paid-calls-in-free-tests': 'warn' },
  }),
  'src/judge.ts': "// Set STIPULATE_FIXTURES to skip the fetch.\nexport const judge = (s: string): string => s.trim();\n",
  'test/chat.test.ts': "import OpenAI from 'openai';\nexport const client = new OpenAI();\n",
  'test/legacy.test.ts': "import Anthropic from '@anthropic-ai/sdk';\nexport const client = new Anthropic();\n",
};

function cliFindings(dir: string): { code: number | null; findings: string[] } {
  const run = runCli(['check', '--format', 'json', '--no-cache'], dir);
  const report: { findings: { ruleId: string; severity: string; file: string; line: number }[] } = JSON.parse(run.stdout);
  return { code: run.code, findings: report.findings.map((f) => `${f.ruleId} ${f.severity} ${f.file}:${f.line}`) };
}

async function eslintFindings(dir: string, severity: 'error' | 'warn'): Promise<string[]> {
  resetModels();
  const rules = Object.fromEntries(Object.keys(tripwire.rules).map((id) => [`tripwire/${id}`, severity]));
  const eslint = new ESLint({ cwd: dir, overrideConfigFile: true, overrideConfig: [...tripwire.configs.recommended, { rules }] });
  const results = await eslint.lintFiles(['.']);
  return results.flatMap((result) => result.messages.map((m) => `${m.ruleId?.replace('tripwire/', '')} ${m.severity === 2 ? 'error' : 'warn'} ${result.filePath.slice(dir.length + 1)}:${m.line}`)).sort();
}

describe('tripwire.config.json in ESLint', () => {
  it('a rule it switches off reports nothing in either surface, a rule at warn reports in both, and what the baseline knows in neither', async () => {
    const dir = makeGitRepo(REPO);
    // The baseline records the legacy test's finding (and only it: the chat test is added afterwards).
    const chat = REPO['test/chat.test.ts'];
    git(dir, 'rm', '-q', 'test/chat.test.ts');
    expect(runCli(['check', '--update-baseline', '--no-cache'], dir).code).toBe(0);
    writeFileSync(join(dir, 'test/chat.test.ts'), chat);

    expect(cliFindings(dir)).toEqual({ code: 0, findings: ['no-paid-calls-in-free-tests warn test/chat.test.ts:1'] });
    // ESLint has one severity per rule, its own: the tripwire config decides whether the rule reports, not how loud.
    expect(await eslintFindings(dir, 'error')).toEqual(['no-paid-calls-in-free-tests error test/chat.test.ts:1']);
    expect(await eslintFindings(dir, 'warn')).toEqual(['no-paid-calls-in-free-tests warn test/chat.test.ts:1']);
  });

  it('with the rules back on and no baseline, both surfaces report everything: the control', async () => {
    const dir = makeGitRepo({ ...REPO, 'tripwire.config.json': JSON.stringify({ tests: { include: ['test/**/*.test.ts'] }, removed: [{ id: 'stipulation', tokens: ['STIPULATE_FIXTURES'], why: 'the judge always fetches' }] }) });
    // A removed token in a comment is a mention, a warning under the recommended preset (in ESLint: the rule's severity).
    expect(cliFindings(dir)).toEqual({
      code: 1,
      findings: ['no-dangling-references warn src/judge.ts:1', 'no-paid-calls-in-free-tests error test/chat.test.ts:1', 'no-paid-calls-in-free-tests error test/legacy.test.ts:1'],
    });
    expect(await eslintFindings(dir, 'error')).toEqual(['no-dangling-references error src/judge.ts:1', 'no-paid-calls-in-free-tests error test/chat.test.ts:1', 'no-paid-calls-in-free-tests error test/legacy.test.ts:1']);
  });
});
