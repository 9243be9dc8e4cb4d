import markdown from '@eslint/markdown';
import tsParser from '@typescript-eslint/parser';
import type { ESLint, Linter } from 'eslint';
import { rules } from '../rules/index.js';
import type { TripwireRule } from '../src/rule.js';

export const SCRIPT_FILES = ['**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}'];
export const MARKDOWN_FILES = ['**/*.md'];

type RuleKey = `tripwire/${TripwireRule['id']}`;

function ruleEntries(pick: (rule: TripwireRule) => boolean, language: 'js/js' | 'markdown/gfm'): Partial<Record<RuleKey, Linter.RuleSeverity>> {
  const out: Partial<Record<RuleKey, Linter.RuleSeverity>> = {};
  for (const rule of rules) {
    const key: RuleKey = `tripwire/${rule.id}`;
    if (pick(rule) && rule.meta.languages.includes(language)) out[key] = 'error';
  }
  return out;
}

/**
 * A preset is one config object per language: ESLint 10 refuses a rule on a
 * language it does not declare, so code rules and Markdown rules never share
 * an object. The parser and the Markdown language are the user's own
 * instances (peer dependencies).
 */
export function createPreset(name: string, plugin: ESLint.Plugin, pick: (rule: TripwireRule) => boolean): Linter.Config[] {
  const configs: Linter.Config[] = [
    {
      name: `tripwire/${name}/code`,
      files: SCRIPT_FILES,
      plugins: { tripwire: plugin },
      languageOptions: { parser: tsParser },
      rules: ruleEntries(pick, 'js/js'),
    },
  ];
  const markdownRules = ruleEntries(pick, 'markdown/gfm');
  if (Object.keys(markdownRules).length > 0) {
    configs.push({ name: `tripwire/${name}/markdown`, files: MARKDOWN_FILES, plugins: { markdown, tripwire: plugin }, language: 'markdown/gfm', rules: markdownRules });
  }
  return configs;
}
