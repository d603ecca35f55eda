/** Comparisons of metrics with thresholds that tolerate float noise: 150.30 / 3 must not count as above 50.10. */
const EPSILON = 1e-9;
export const above = (value: number, threshold: number) =>
  value - threshold > EPSILON * Math.max(1, Math.abs(threshold));
export const below = (value: number, threshold: number) =>
  threshold - value > EPSILON * Math.max(1, Math.abs(threshold));
export const atLeast = (value: number, threshold: number) => !below(value, threshold);
