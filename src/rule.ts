import type * as z from 'zod';
import type { RuleId } from './rule-ids.js';
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
  /** Validates the options of `[severity, options]` in the config; throws the zod error. */
  parseOptions(options: unknown): unknown;
  options: z.ZodType;
  check(model: RepoModel, options: unknown): RuleFinding[];
}

interface RuleDefinition<Options> {
  id: RuleId;
  meta: RuleMeta;
  /** A strict zod object with defaults (`z.strictObject({})` for none); the rule receives the parsed value. */
  options: z.ZodType<Options, unknown>;
  check(model: RepoModel, options: Options): RuleFinding[];
}

/** Every rule is built here so that its docs URL follows from its id and its options are validated in one place. */
export function createRule<Options>(rule: RuleDefinition<Options>): TripwireRule {
  const parse = (options: unknown): Options => rule.options.parse(options ?? {});
  return {
    id: rule.id,
    meta: { ...rule.meta, url: `${DOCS_BASE_URL}${rule.id}.md` },
    parseOptions: parse,
    options: rule.options,
    check: (model, options) => rule.check(model, parse(options)),
  };
}
