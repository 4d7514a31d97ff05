/**
 * Limited-memory BFGS (Nocedal 1980; Nocedal & Wright, Numerical Optimization, 2nd ed.,
 * Algorithm 7.4 two-loop recursion and Algorithm 7.5) with a backtracking Armijo line search.
 * Full-batch and deterministic: the same data and options give the same weights, bit for bit.
 */
export type Objective = (x: Float64Array, gradient: Float64Array) => number;

export interface LbfgsOptions {
  maxIterations: number;
  /** History pairs kept (m in Nocedal & Wright). */
  memory?: number;
  /** Stop when the relative decrease of f over one iteration falls below this. */
  tolerance?: number;
  onIteration?: (iteration: number, value: number) => void;
}

export interface LbfgsResult {
  value: number;
  iterations: number;
  evaluations: number;
}

export function minimize(objective: Objective, x: Float64Array, options: LbfgsOptions): LbfgsResult {
  const n = x.length;
  const memory = options.memory ?? 10;
  const tolerance = options.tolerance ?? 1e-5;
  const history: Array<{ s: Float64Array; y: Float64Array; rho: number }> = [];
  let gradient: Float64Array = new Float64Array(n);
  let value = objective(x, gradient);
  let evaluations = 1;
  let iteration = 0;
  const direction = new Float64Array(n);
  const nextX = new Float64Array(n);
  let nextGradient: Float64Array = new Float64Array(n);
  while (iteration < options.maxIterations) {
    iteration++;
    searchDirection(gradient, history, direction);
    let slope = dot(direction, gradient);
    if (slope >= 0) {
      // Not a descent direction (numerical trouble): restart from steepest descent.
      history.length = 0;
      for (let i = 0; i < n; i++) direction[i] = -(gradient[i] as number);
      slope = dot(direction, gradient);
    }
    let step = history.length === 0 ? 1 / Math.max(1, Math.sqrt(dot(gradient, gradient))) : 1;
    let nextValue = Infinity;
    for (let tries = 0; tries < 30; tries++) {
      for (let i = 0; i < n; i++) nextX[i] = (x[i] as number) + step * (direction[i] as number);
      nextValue = objective(nextX, nextGradient);
      evaluations++;
      if (nextValue <= value + 1e-4 * step * slope) break;
      step *= 0.5;
    }
    if (!(nextValue < value)) break;
    remember(history, memory, x, nextX, gradient, nextGradient);
    x.set(nextX);
    [gradient, nextGradient] = [nextGradient, gradient];
    const decrease = (value - nextValue) / Math.max(1, Math.abs(value));
    value = nextValue;
    options.onIteration?.(iteration, value);
    if (decrease < tolerance) break;
  }
  return { value, iterations: iteration, evaluations };
}

function remember(
  history: Array<{ s: Float64Array; y: Float64Array; rho: number }>,
  memory: number,
  x: Float64Array,
  nextX: Float64Array,
  gradient: Float64Array,
  nextGradient: Float64Array,
): void {
  const recycled = history.length >= memory ? history.shift() : undefined;
  const s = recycled?.s ?? new Float64Array(x.length);
  const y = recycled?.y ?? new Float64Array(x.length);
  for (let i = 0; i < x.length; i++) {
    s[i] = (nextX[i] as number) - (x[i] as number);
    y[i] = (nextGradient[i] as number) - (gradient[i] as number);
  }
  const sy = dot(s, y);
  // Skip pairs that would break positive definiteness (curvature condition s·y > 0).
  if (sy > 1e-12) history.push({ s, y, rho: 1 / sy });
}

/** Two-loop recursion: direction = -H·g with H the implicit inverse Hessian approximation. */
function searchDirection(
  gradient: Float64Array,
  history: ReadonlyArray<{ s: Float64Array; y: Float64Array; rho: number }>,
  direction: Float64Array,
): void {
  const n = gradient.length;
  for (let i = 0; i < n; i++) direction[i] = -(gradient[i] as number);
  const alphas: number[] = [];
  for (let k = history.length - 1; k >= 0; k--) {
    const pair = history[k]!;
    const a = pair.rho * dot(pair.s, direction);
    alphas[k] = a;
    axpy(-a, pair.y, direction);
  }
  const newest = history[history.length - 1];
  if (newest !== undefined) {
    const gamma = dot(newest.s, newest.y) / dot(newest.y, newest.y);
    for (let i = 0; i < n; i++) direction[i] = (direction[i] as number) * gamma;
  }
  for (let k = 0; k < history.length; k++) {
    const pair = history[k]!;
    const b = pair.rho * dot(pair.y, direction);
    axpy((alphas[k] as number) - b, pair.s, direction);
  }
}

function dot(a: Float64Array, b: Float64Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] as number) * (b[i] as number);
  return sum;
}

function axpy(a: number, x: Float64Array, y: Float64Array): void {
  for (let i = 0; i < x.length; i++) y[i] = (y[i] as number) + a * (x[i] as number);
}
