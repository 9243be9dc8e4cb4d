import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { check } from '../../src/engine/index.js';
import { RULE_IDS } from '../../src/rule-ids.js';
import { PACKAGE_ROOT } from '../../src/version.js';
import { rules } from '../../rules/index.js';
import { fixtureRepo, fixtureRepoWithBase } from '../support/overlay.js';

interface Case {
  repo: string;
  overlay?: string;
  /** An overlay (or `repo` itself) committed as HEAD~1 under the case's own state: the case is checked with `base: 'HEAD~1'`. */
  base?: string;
  why?: string;
  findings?: string[];
}

interface Index {
  good: Case[];
  bad: Case[];
}

function indexOf(rule: string): Index {
  return JSON.parse(readFileSync(join(PACKAGE_ROOT, 'fixtures', 'rules', rule, 'fixtures.json'), 'utf8')) as Index;
}

function caseName(item: Case): string {
  return `${item.overlay ?? item.repo}${item.base === undefined ? '' : ` (on ${item.base})`}`;
}

/** `file:line messageId` of every finding of `rule` in the built case, in report order. */
async function findingsOf(rule: string, item: Case): Promise<string[]> {
  const result =
    item.base === undefined
      ? await check({ cwd: fixtureRepo(item.repo, item.overlay), cache: false })
      : await check({ cwd: fixtureRepoWithBase(item.repo, item.base, item.overlay), cache: false, base: 'HEAD~1' });
  return result.findings.filter((f) => f.ruleId === rule).map((f) => `${f.file}:${f.line} ${f.messageId}`);
}

// Every rule has a known-good and a known-bad repository, indexed under
// fixtures/rules/<id>/fixtures.json (the repositories themselves are shared by
// theme: maps/, shipped/, frozen/). A bad one must fail for its stated reason:
// exactly the listed findings of its own rule, each of the listed kind, so
// deleting the rule's check, or reporting the defect as another kind, fails here.
describe.each(RULE_IDS.map((rule) => [rule]))('%s', (rule) => {
  const index = indexOf(rule);

  it('has at least one known-good and one known-bad repository, each bad one with its reason and findings', () => {
    expect(index.good.length).toBeGreaterThan(0);
    expect(index.bad.length).toBeGreaterThan(0);
    for (const item of index.bad) {
      expect(item.why).toBeTruthy();
      expect(item.findings?.length).toBeGreaterThan(0);
    }
  });

  // A message id no bad case produces is a finding kind whose branch can be deleted with the suite green.
  it('lists every message id of the rule in at least one bad case', () => {
    const definition = rules.find((candidate) => candidate.id === rule);
    expect(definition).toBeDefined();
    const listed = new Set(index.bad.flatMap((item) => (item.findings ?? []).map((finding) => finding.split(' ')[1])));
    expect(Object.keys(definition?.meta.messages ?? {}).filter((id) => !listed.has(id))).toEqual([]);
  });

  it.each(index.good.map((item) => [caseName(item), item]))('good: %s has no finding of the rule', async (_name, item) => {
    expect(await findingsOf(rule, item)).toEqual([]);
  });

  it.each(index.bad.map((item) => [caseName(item), item]))('bad: %s has exactly the listed findings of the rule', async (_name, item) => {
    expect(await findingsOf(rule, item)).toEqual(item.findings);
  });
});
