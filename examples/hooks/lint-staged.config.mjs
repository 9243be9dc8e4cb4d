// tripwire checks the whole staged change (an edit to a helper can make an unchanged
// test reach a paid call), so it runs once, without lint-staged's file list.
export default {
  '*': () => 'tripwire check --staged',
};
