import type { ESLint, Linter } from 'eslint';
import { markdown } from '../presets/markdown.js';
import { recommended } from '../presets/recommended.js';
import { strict } from '../presets/strict.js';
import { plugin } from './eslint/plugin.js';

export { rules, RULE_IDS, type RuleId, check, type CheckOptions, type CheckResult, type Finding, type Summary } from './api.js';

const built: { recommended?: Linter.Config[]; strict?: Linter.Config[]; markdown?: Linter.Config[] } = {};

/**
 * Each preset is built when first read, and then is the same array on every
 * read: a preset loads its peer (the TS parser, the Markdown language) then,
 * so importing the plugin needs neither.
 */
const configs = {
  get recommended(): Linter.Config[] {
    return (built.recommended ??= recommended(tripwire));
  },
  get strict(): Linter.Config[] {
    return (built.strict ??= strict(tripwire));
  },
  /** Opt-in: the Markdown rules on `**\/*.md` (see the README before adding it beside other configs). */
  get markdown(): Linter.Config[] {
    return (built.markdown ??= markdown(tripwire));
  },
};

/** `import tripwire from 'eslint-plugin-tripwire'` → `tripwire.configs.recommended`. */
const tripwire = Object.assign(plugin, { configs }) satisfies ESLint.Plugin;

export default tripwire;
