import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Linter } from 'eslint';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import tripwire from '../../src/index.js';
import { check } from '../../src/engine/index.js';
import { resetModels } from '../../src/eslint/adapter.js';
import { fixtureRepo } from '../support/overlay.js';

/**
 * What a YAML parser for ESLint (yaml-eslint-parser) gives a rule that reads
 * no AST: a Program spanning the file's text. The rule reads the workflow
 * through tripwire's own model, with the buffer overlaid.
 */
const yamlParser: Linter.Parser = {
  meta: { name: 'yaml-stand-in' },
  parseForESLint(text: string) {
    const lines = text.split('\n');
    const ast = {
      type: 'Program' as const,
      body: [],
      sourceType: 'module' as const,
      comments: [],
      tokens: [],
      range: [0, text.length] as [number, number],
      loc: { start: { line: 1, column: 0 }, end: { line: lines.length, column: (lines.at(-1) ?? '').length } },
    };
    return { ast, visitorKeys: { Program: [] } };
  },
};

function eslintFor(cwd: string): ESLint {
  return new ESLint({
    cwd,
    overrideConfigFile: true,
    overrideConfig: [{ files: ['.github/workflows/*.{yml,yaml}'], languageOptions: { parser: yamlParser }, plugins: { tripwire }, rules: { 'tripwire/paid-ci-lanes': 'error' } }],
  });
}

const CASES: [string, string | undefined][] = [
  ['ci/good', undefined],
  ['ci/good', 'ci/bad/secret-in-free-job'],
  ['ci/good', 'ci/bad/new-job-untrusted'],
  ['ci/good', 'ci/bad/trust-wrong-field'],
  ['ci/good', 'ci/bad/pr-target-head-checkout'],
  ['ci/good', 'ci/bad/unparsable-workflow'],
];

describe('paid-ci-lanes in ESLint, with a YAML parser configured for the workflows', () => {
  it.each(CASES)('reports on %s + %s exactly what tripwire check reports', async (repo, overlay) => {
    resetModels();
    const dir = fixtureRepo(repo, overlay);
    const cli = await check({ cwd: dir, cache: false, rules: ['paid-ci-lanes'] });
    const results = await eslintFor(dir).lintFiles(['.github/workflows']);
    const eslint = results.flatMap((result) => result.messages.map((m) => `${result.filePath.slice(dir.length + 1)}:${m.line}:${m.column} ${m.messageId ?? m.message}`)).sort();
    expect(eslint).toEqual(cli.findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.messageId}`).sort());
  });

  it('reports on the editor buffer, not the file on disk', async () => {
    resetModels();
    const dir = fixtureRepo('ci/good');
    const text = readFileSync(join(dir, '.github/workflows/ci.yml'), 'utf8').replace("    if: github.event_name != 'pull_request' || contains(fromJSON('[\"OWNER\", \"MEMBER\", \"COLLABORATOR\"]'), github.event.pull_request.author_association)\n", '');
    const [result] = await eslintFor(dir).lintText(text, { filePath: join(dir, '.github/workflows/ci.yml') });
    expect(result?.messages.map((m) => `${m.line} ${m.messageId}`)).toEqual(['36 untrustedPaidStep']);
  });

  it('is in neither code preset: YAML needs the parser, and the CLI is where the rule runs by default', () => {
    const presetRules = [...tripwire.configs.recommended, ...tripwire.configs.strict].flatMap((config) => Object.keys(config.rules ?? {}));
    expect(presetRules).not.toContain('tripwire/paid-ci-lanes');
    expect(tripwire.rules['paid-ci-lanes']?.meta?.languages).toEqual(['js/js']);
  });
});
