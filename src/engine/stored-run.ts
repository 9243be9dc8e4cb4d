// What a check that missed the result cache needs beyond the probe: the
// engine itself, and the form its verdict is stored and reported in. Loaded
// by verdict.ts only on a miss (and while the probe lists the files), so a
// hit never loads the rules.
import { DOCS_BASE_URL } from '../rule.js';
import { CORE_RULES } from './core-checks.js';
import type { StoredRun } from './results-cache.js';
import { severityOf } from './rule-set.js';
import { runChecks } from './workspace.js';

export { runChecks };

/** A run's verdict as the result cache stores it and the reporters read it: findings, summary, the rules' metadata, the coverage when computed. */
export function storedRunOf(result: Awaited<ReturnType<typeof runChecks>>): StoredRun {
  return {
    root: result.root,
    findings: result.findings,
    summary: result.summary,
    rules: [
      ...result.rulesRun.map((rule) => ({ id: rule.id, description: rule.meta.description, url: rule.meta.url, severity: severityOf(result.model.config.rules[rule.id]), messages: rule.meta.messages })),
      ...Object.entries(CORE_RULES).map(([id, core]) => ({ id, description: core.description, url: `${DOCS_BASE_URL}core-checks.md#${id}`, messages: core.messages })),
    ],
    ...(result.coverage && { coverage: result.coverage }),
  };
}
