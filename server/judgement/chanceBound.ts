/**
 * How far chance could flatter a rate seen on few people: the upper end of a one-sided 95 % Wilson
 * score interval. 12 of 40 registrants attending (30 %) is what an ad with a true show-up rate of up
 * to 43 % shows one time in twenty, so a task on show-ups acts only when the line is crossed even at
 * that rate; with 400 registrants the bound is 34 %. The Wilson interval (not the normal
 * approximation) stays inside 0–1 and holds for 0 of n.
 */
const Z_ONE_SIDED_95 = 1.6449;

export function rateUpperBound(successes: number, trials: number, z = Z_ONE_SIDED_95): number {
  if (trials <= 0) return 1;
  const p = successes / trials;
  const z2 = z * z;
  const centre = p + z2 / (2 * trials);
  const spread = z * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials));
  return Math.min(1, (centre + spread) / (1 + z2 / trials));
}
