import { createRequire } from 'node:module';
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

const requirePeer = createRequire(import.meta.url);

/**
 * An optional peer dependency, loaded when the first preset that needs it is
 * read: importing the plugin or `eslint-plugin-tripwire/api` loads neither.
 * Resolved from the plugin's own place, so it is the user's instance (the one
 * their config shares), never a second copy.
 */
export function peer<Module>(name: string, preset: string): Module {
  try {
    return requirePeer(name);
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'MODULE_NOT_FOUND' && error.message.includes(`'${name}'`)) {
      throw new Error(`tripwire.configs.${preset} needs ${name}, an optional peer dependency of eslint-plugin-tripwire: npm i -D ${name}`, { cause: error });
    }
    throw error;
  }
}

/**
 * The TS/JS block of a preset. ESLint 10 refuses a rule on a language it does
 * not declare, so code rules and Markdown rules never share an object.
 */
export function codeConfig(name: string, plugin: ESLint.Plugin, pick: (rule: TripwireRule) => boolean): Linter.Config {
  const parser = peer<Linter.Parser>('@typescript-eslint/parser', name);
  return { name: `tripwire/${name}/code`, files: SCRIPT_FILES, plugins: { tripwire: plugin }, languageOptions: { parser }, rules: ruleEntries(pick, 'js/js') };
}

/**
 * The Markdown block, its own opt-in preset: a config object with `files`
 * puts every file it matches into the lint, and the JS rules of the user's
 * other configs (`js.configs.recommended`, typescript-eslint's) would then run
 * on Markdown and crash. Whoever adds it scopes those configs to code files.
 */
export function markdownConfig(name: string, plugin: ESLint.Plugin, pick: (rule: TripwireRule) => boolean): Linter.Config {
  // @eslint/markdown is ESM only: require() returns its namespace.
  const markdown = peer<{ default: ESLint.Plugin }>('@eslint/markdown', name).default;
  return { name: `tripwire/${name}`, files: MARKDOWN_FILES, plugins: { markdown, tripwire: plugin }, language: 'markdown/gfm', rules: ruleEntries(pick, 'markdown/gfm') };
}
