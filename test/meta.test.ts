import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RULE_IDS } from '../rules/ids.js';
import { rules } from '../rules/index.js';
import { check } from '../src/check.js';
import { PACKAGE_ROOT } from '../src/version.js';
import { makeGitRepo } from './support/repo.js';

function doc(id: string): string {
  return readFileSync(join(PACKAGE_ROOT, 'rules', `${id}.md`), 'utf8');
}

/** The fenced `ts` block that follows a ❌ or ✅ marker. */
function example(text: string, marker: '❌' | '✅'): string {
  const match = new RegExp(`${marker}[^\\n]*\\n+\`\`\`ts\\n([\\s\\S]*?)\`\`\``).exec(text);
  if (!match?.[1]) throw new Error(`no ${marker} example`);
  return match[1];
}

describe.each(rules.map((rule) => [rule.id, rule] as const))('rule %s', (id, rule) => {
  it('is a known rule id, with its docs URL derived from the id', () => {
    expect(RULE_IDS).toContain(id);
    expect(rule.meta.url).toMatch(new RegExp(`/rules/${id}\\.md$`));
  });

  it('has a doc whose title is the id and whose first paragraph is meta.docs.description', () => {
    const [title, , description] = doc(id).split('\n');
    expect(title).toBe(`# ${id}`);
    expect(description).toBe(rule.meta.description);
  });

  it('has ❌ and ✅ examples that behave as the doc says', async () => {
    const text = doc(id);
    const config = '{ "tests": { "include": ["test/**/*.test.ts"] } }';
    const bad = await check({ cwd: makeGitRepo({ 'tripwire.config.json': config, 'test/example.test.ts': example(text, '❌') }), cache: false, rules: [id] });
    const good = await check({ cwd: makeGitRepo({ 'tripwire.config.json': config, 'test/example.test.ts': example(text, '✅') }), cache: false, rules: [id] });
    expect(bad.findings.filter((f) => f.ruleId === id).length).toBeGreaterThan(0);
    expect(good.findings).toEqual([]);
  });
});

describe('the rule registry', () => {
  it('lists each rule once, in RULE_IDS order', () => {
    const ids = rules.map((rule) => rule.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(RULE_IDS.filter((id) => ids.includes(id)));
  });
});
