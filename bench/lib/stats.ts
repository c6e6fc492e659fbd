/** Small statistics and timing helpers: medians resist the noise of a shared machine. */
import { performance } from "node:perf_hooks";

/** Middle value of the samples (mean of the two middle ones for an even count). */
export function median(samples: readonly number[]): number {
  if (samples.length === 0) throw new Error("median of no samples");
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = sorted.length >>> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** The `fraction` quantile (0..1) by nearest rank. */
export function quantile(samples: readonly number[], fraction: number): number {
  if (samples.length === 0) throw new Error("quantile of no samples");
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[rank];
}

/** Milliseconds `action` took, with its result. */
export async function timed<T>(action: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await action();
  return { ms: performance.now() - start, value };
}

/** Milliseconds since `start` (a `performance.now()` reading). */
export function elapsedSince(start: number): number {
  return performance.now() - start;
}

export function now(): number {
  return performance.now();
}

/** Least-squares line through the points; `r2` says how well a line explains them. */
export function linearFit(points: ReadonlyArray<{ x: number; y: number }>): {
  slope: number;
  intercept: number;
  r2: number;
} {
  const n = points.length;
  const meanX = points.reduce((sum, p) => sum + p.x, 0) / n;
  const meanY = points.reduce((sum, p) => sum + p.y, 0) / n;
  let covariance = 0;
  let varianceX = 0;
  let varianceY = 0;
  for (const p of points) {
    covariance += (p.x - meanX) * (p.y - meanY);
    varianceX += (p.x - meanX) ** 2;
    varianceY += (p.y - meanY) ** 2;
  }
  const slope = varianceX === 0 ? 0 : covariance / varianceX;
  const intercept = meanY - slope * meanX;
  const r2 = varianceY === 0 ? 1 : (covariance * covariance) / (varianceX * varianceY);
  return { slope, intercept, r2 };
}

/** Rounds for display and JSON: enough digits to compare, not more. */
export function round(value: number, digits = 3): number {
  if (!Number.isFinite(value)) return value;
  const magnitude = Math.abs(value);
  const places = magnitude >= 100 ? 1 : magnitude >= 1 ? 2 : digits;
  const factor = 10 ** places;
  return Math.round(value * factor) / factor;
}
