import type { TripwireRule } from '../src/rule.js';
import noPaidCallsInFreeTests from './no-paid-calls-in-free-tests.js';

/** The rules that have landed, in DESIGN.md order: the CLI and the ESLint plugin both read this list. */
export const rules: readonly TripwireRule[] = [noPaidCallsInFreeTests];
