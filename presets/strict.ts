import type { ESLint, Linter } from 'eslint';
import { codeConfig } from './shared.js';

/** Every rule at error, and unused disable directives reported: nothing is switched off in silence. */
export function strict(plugin: ESLint.Plugin): Linter.Config[] {
  return [codeConfig('strict', plugin, () => true), { name: 'tripwire/strict/directives', linterOptions: { reportUnusedDisableDirectives: 'error' } }];
}
