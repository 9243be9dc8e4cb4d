import type { TripwireRule } from '../src/rule.js';
import globalTouchfilesPresent from './global-touchfiles-present.js';
import noDanglingReferences from './no-dangling-references.js';
import noPaidCallsInFreeTests from './no-paid-calls-in-free-tests.js';
import noTestCarveOuts from './no-test-carve-outs.js';
import noWeakenedFrozenTests from './no-weakened-frozen-tests.js';
import paidCiLanes from './paid-ci-lanes.js';
import tiersCoverPaidTests from './tiers-cover-paid-tests.js';
import touchfilesCoverPaidTests from './touchfiles-cover-paid-tests.js';

/** The rules that have landed, in DESIGN.md order: the CLI and the ESLint plugin both read this list. */
export const rules: readonly TripwireRule[] = [noPaidCallsInFreeTests, touchfilesCoverPaidTests, tiersCoverPaidTests, globalTouchfilesPresent, noTestCarveOuts, noDanglingReferences, noWeakenedFrozenTests, paidCiLanes];
