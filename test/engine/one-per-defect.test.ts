import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { buildModel, evaluate } from '../../src/engine/index.js';
import { createRule } from '../../src/rule.js';
import { makeGitRepo } from '../support/repo.js';

const AT = { line: 3, column: 5, endLine: 3, endColumn: 9 };

/** A rule that reaches the same defect by several paths, as a map walked through many loop alternatives does. */
const repeating = createRule({
  id: 'touchfiles-cover-paid-tests',
  meta: {
    description: 'test double',
    languages: ['js/js'],
    recommended: true,
    messages: { unevaluableId: { description: 'an id' }, orphanKey: { description: 'a key' }, testOnlyEnvMention: { description: 'a mention', heuristic: true } },
  },
  options: z.strictObject({}),
  check: () => [
    { messageId: 'unevaluableId', file: 'test/a.test.ts', loc: AT, message: 'first path' },
    { messageId: 'unevaluableId', file: 'test/a.test.ts', loc: AT, message: 'second path' },
    { messageId: 'orphanKey', file: 'test/a.test.ts', loc: AT, message: 'another kind at the same place' },
    { messageId: 'unevaluableId', file: 'test/a.test.ts', loc: { ...AT, column: 6 }, message: 'another place' },
    { messageId: 'testOnlyEnvMention', file: 'test/a.test.ts', loc: { ...AT, line: 9 }, message: 'a prose mention' },
  ],
});

describe('the engine', () => {
  it('keeps one finding per (rule, message id, file, line, column): the first path that reached it', async () => {
    const { model } = await buildModel({ cwd: makeGitRepo({ 'tripwire.config.json': '{}' }), cache: false });
    const { findings } = evaluate(model, [{ rule: repeating, severity: 'error', options: {}, preset: 'recommended' }], null);
    expect(findings.map((f) => `${f.line}:${f.column} ${f.messageId} ${f.severity} ${f.message}`)).toEqual([
      '3:5 unevaluableId error first path',
      '3:5 orphanKey error another kind at the same place',
      '3:6 unevaluableId error another place',
      '9:5 testOnlyEnvMention warn a prose mention',
    ]);
  });

  it('reports heuristic kinds at the rule severity under the strict preset, and never above it', async () => {
    const { model } = await buildModel({ cwd: makeGitRepo({ 'tripwire.config.json': '{}' }), cache: false });
    const strict = evaluate(model, [{ rule: repeating, severity: 'error', options: {}, preset: 'strict' }], null);
    expect(strict.findings.find((f) => f.messageId === 'testOnlyEnvMention')?.severity).toBe('error');
    const warned = evaluate(model, [{ rule: repeating, severity: 'warn', options: {}, preset: 'strict' }], null);
    expect(new Set(warned.findings.map((f) => f.severity))).toEqual(new Set(['warn']));
  });
});
