import { PAID_ENV } from '../../src/vocab/paid.js';
import { isAmbientEnv, RUNNER_ENV } from '../../src/vocab/env.js';
import type { RepoModel } from '../../src/model/model.js';
import { envUses, isStub, testAreas, type EnvUse } from '../../src/analysis/seams.js';
import { isMarkdownFile } from '../../src/util/file-kinds.js';
import type { RuleFinding } from '../../src/rule.js';
import { findMentions } from './mentions.js';

function family(name: string): string | null {
  const cut = name.indexOf('_');
  return cut > 0 ? name.slice(0, cut + 1) : null;
}

/**
 * Test seams left behind. A stub that reads an env var nothing else in the
 * repository names any more lost the case that set it; a test that sets a
 * variable of the stubs' family (`CMR_` when the stubs read `CMR_FIXTURE`)
 * that nothing reads any more configures a seam that is gone.
 */
export function leftoverSeamFindings(model: RepoModel): RuleFinding<'staleStubRead' | 'staleSeamSet'>[] {
  const ignored = new Set([...PAID_ENV, ...model.config.paid.env, ...RUNNER_ENV]);
  const relevant = (use: EnvUse): boolean => !ignored.has(use.name) && !isAmbientEnv(use.name);
  const reads = new Map<string, EnvUse[]>();
  const families = new Set<string>();
  const areas = testAreas(model);
  for (const file of model.files) {
    if (!isStub(model, file)) continue;
    for (const use of envUses(model, file)) {
      if (use.op !== 'read' || !relevant(use)) continue;
      reads.set(use.name, [...(reads.get(use.name) ?? []), use]);
      const prefix = family(use.name);
      if (prefix) families.add(prefix);
    }
  }
  if (reads.size === 0) return [];
  const sets = new Map<string, EnvUse[]>();
  for (const file of model.files) {
    if (!areas.isTestOnly(file) || isMarkdownFile(file)) continue;
    for (const use of envUses(model, file)) {
      const prefix = family(use.name);
      if (use.op !== 'set' || !relevant(use) || prefix === null || !families.has(prefix) || reads.has(use.name)) continue;
      sets.set(use.name, [...(sets.get(use.name) ?? []), use]);
    }
  }
  const readerFiles = (name: string): Set<string> => new Set((reads.get(name) ?? []).map((use) => use.file));
  const setterFiles = (name: string): Set<string> => new Set((sets.get(name) ?? []).map((use) => use.file));
  const named = new Set<string>();
  const mentions = findMentions(model, [...reads.keys(), ...sets.keys()], (file, token) => readerFiles(token).has(file) || setterFiles(token).has(file));
  for (const mention of mentions) named.add(mention.token);

  const findings: RuleFinding<'staleStubRead' | 'staleSeamSet'>[] = [];
  for (const [name, uses] of reads) {
    if (named.has(name) || uses.some((use) => envUses(model, use.file).some((other) => other.name === name && other.op === 'set'))) continue;
    for (const use of firstPerFile(uses)) {
      findings.push({ messageId: 'staleStubRead', file: use.file, loc: use.loc, message: `this stub reads ${name}, but nothing else in the repository sets or names it any more: the case that set it is gone. Remove the read and the behaviour behind it, or restore the case.` });
    }
  }
  for (const [name, uses] of sets) {
    if (named.has(name)) continue;
    for (const use of firstPerFile(uses)) {
      findings.push({ messageId: 'staleSeamSet', file: use.file, loc: use.loc, message: `sets ${name} for the stubs, but no stub or other file reads it any more: the seam it configured is gone. Remove the assignment.` });
    }
  }
  return findings;
}

function firstPerFile(uses: readonly EnvUse[]): EnvUse[] {
  const seen = new Set<string>();
  return uses.filter((use) => !seen.has(use.file) && seen.add(use.file));
}
