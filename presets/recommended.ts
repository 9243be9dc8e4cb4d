import type { ESLint, Linter } from 'eslint';
import { createPreset } from './shared.js';

/** Every rule marked recommended, at error. */
export function recommended(plugin: ESLint.Plugin): Linter.Config[] {
  return createPreset('recommended', plugin, (rule) => rule.meta.recommended);
}
