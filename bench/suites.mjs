// @ts-check
/**
 * The suites, in order: `rows(result, options)` turns a run's result into the summary table's rows (the suite's
 * module exports it). A new suite is one entry here.
 */
export const suites = [
  { key: 'classify', title: 'classify throughput (issues 2, 30)', file: './classify.mjs', fn: 'benchClassify' },
  {
    key: 'page-overhead',
    title: 'page overhead of capture (issues 4, 13, 30, 47)',
    file: './page-overhead.mjs',
    fn: 'benchPageOverhead',
  },
  {
    key: 'page-overhead-firefox',
    title: 'page overhead of capture in Firefox (issues 31, 47)',
    file: './page-overhead-firefox.mjs',
    fn: 'benchPageOverheadFirefox',
  },
  { key: 'panel', title: 'panel with 100,000 records (issues 5, 27, 49)', file: './panel.mjs', fn: 'benchPanel' },
  { key: 'page-load', title: 'page load with capture (issue 47)', file: './page-load.mjs', fn: 'benchPageLoad' },
  { key: 'soak', title: 'a long session (issue 47)', file: './soak.mjs', fn: 'benchSoak' },
];
