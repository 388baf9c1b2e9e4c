// @ts-check
// Statistics shared by the benchmarks: medians of paired ratios and how far they can be trusted.

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/**
 * How far the median of `xs` can be trusted: the 5th and 95th percentiles of the medians of 2,000 resamples (with
 * replacement; a fixed seed, so that one run's figures print the same interval each time they are computed).
 */
export function medianInterval(xs) {
  let seed = 12345;
  const rand = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const ms = [];
  for (let k = 0; k < 2000; k++) {
    ms.push(median(xs.map(() => xs[Math.floor(rand() * xs.length)])));
  }
  ms.sort((a, b) => a - b);
  return [ms[Math.floor(0.05 * ms.length)], ms[Math.ceil(0.95 * ms.length) - 1]];
}
