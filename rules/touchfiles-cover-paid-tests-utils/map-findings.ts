import type { RuleId } from '../../src/rule-ids.js';
import type { RepoModel } from '../../src/model/model.js';
import { FILE_START } from '../../src/model/positions.js';
import type { SelectionProblem } from '../../src/model/selection.js';
import type { RuleFinding } from '../../src/rule.js';

/** The evaluation problems of the maps and ids that belong to `rule`. */
export function mapProblems(problems: readonly SelectionProblem[], rule: RuleId): RuleFinding[] {
  return problems.filter((problem) => problem.rule === rule).map(({ file, loc, message }) => ({ file, loc, message }));
}

/** Paid tests exist but the map this rule reads is not configured: nothing can be checked, which is a finding, not a pass. */
export function missingMapFinding(model: RepoModel, key: string, what: string): RuleFinding[] {
  const paid = model.paidTestFiles();
  if (paid.length === 0) return [];
  return [
    {
      file: model.configFile ?? 'tripwire.config.json',
      loc: FILE_START,
      message: `${paid.length} paid test file${paid.length === 1 ? '' : 's'} but no ${what} is configured (${key}): configure it, or turn this rule off`,
    },
  ];
}
