import type { ESLint, Rule } from 'eslint';
import { rules } from '../../rules/index.js';
import { PACKAGE_NAME, VERSION } from '../version.js';
import { toEslintRule } from './rules.js';

/** The plugin object: the rules of `rules/`, each the same rule as in the CLI. Presets are attached in src/index.ts. */
export const plugin = {
  meta: { name: PACKAGE_NAME, version: VERSION, namespace: 'tripwire' },
  rules: Object.fromEntries(rules.map((rule) => [rule.id, toEslintRule(rule)])) satisfies Record<string, Rule.RuleModule>,
} satisfies ESLint.Plugin;
