import type { ESLint, Linter } from 'eslint';
import { codeConfig } from './shared.js';

/** Every rule marked recommended, at error, on TS/JS files. */
export function recommended(plugin: ESLint.Plugin): Linter.Config[] {
  return [codeConfig('recommended', plugin, (rule) => rule.meta.recommended)];
}
