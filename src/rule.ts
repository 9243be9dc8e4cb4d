import type { RuleId } from '../rules/ids.js';
import type { RepoModel } from './model/model.js';
import type { Loc, Related } from './types.js';

export const DOCS_BASE_URL = 'https://github.com/tripwire-lint/tripwire/blob/main/rules/';

/** A finding as a rule reports it; the engine adds the rule id and the configured severity. */
export interface RuleFinding {
  file: string;
  loc: Loc;
  message: string;
  related?: Related[];
}

export interface RuleMeta {
  description: string;
  /** The languages of the files its findings land in, for the ESLint surface. */
  languages: ('js/js' | 'markdown/commonmark' | 'markdown/gfm' | 'json/json')[];
  recommended: boolean;
}

export interface TripwireRule {
  id: RuleId;
  meta: RuleMeta & { url: string };
  check(model: RepoModel): RuleFinding[];
}

/** Every rule is built here so that its docs URL follows from its id. */
export function createRule(rule: { id: RuleId; meta: RuleMeta; check(model: RepoModel): RuleFinding[] }): TripwireRule {
  return { ...rule, meta: { ...rule.meta, url: `${DOCS_BASE_URL}${rule.id}.md` } };
}
