/**
 * Active readiness checks for Debian's open-source nginx, which checks its upstreams only
 * passively (a failed connection): every `everyMs` each replica's `GET /readyz` is asked, and when
 * the set of replicas that do not answer 200 within `timeoutMs` changes, `apply` is called with
 * it (the nginx tools write the configuration with those replicas `down` and reload nginx). A
 * replica whose accounts store or index fails is then out of rotation until it is ready again.
 */
export interface ReadinessOptions {
  /** The replicas, as host:port. */
  upstreams: readonly string[];
  everyMs: number;
  timeoutMs: number;
  apply(down: ReadonlySet<string>): Promise<void>;
  /** Told of each change and of a failed apply. */
  report?(message: string): void;
}

export interface ReadinessWatch {
  /** The replicas out of rotation as last applied. */
  readonly down: ReadonlySet<string>;
  /** Resolves after the next round of checks (and its apply, if the set changed). */
  nextRound(): Promise<void>;
  stop(): void;
}

async function ready(address: string, timeoutMs: number): Promise<boolean> {
  try {
    const response = await fetch(`http://${address}/readyz`, { signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    return response.status === 200;
  } catch {
    return false;
  }
}

const same = (a: ReadonlySet<string>, b: ReadonlySet<string>) =>
  a.size === b.size && [...a].every((item) => b.has(item));

export function watchReadiness(options: ReadinessOptions): ReadinessWatch {
  let down: ReadonlySet<string> = new Set();
  let stopped = false;
  let waiters: Array<() => void> = [];
  let timer: NodeJS.Timeout | undefined;

  const round = async (): Promise<void> => {
    const checks = await Promise.all(options.upstreams.map((address) => ready(address, options.timeoutMs)));
    const next = new Set(options.upstreams.filter((_, i) => !checks[i]));
    if (!same(next, down)) {
      try {
        await options.apply(next);
        options.report?.(`out of rotation: ${[...next].join(", ") || "none"}`);
        down = next;
      } catch (error) {
        options.report?.(`could not apply the readiness of the replicas: ${String(error)}`);
      }
    }
  };
  const loop = async (): Promise<void> => {
    if (stopped) return;
    await round();
    const done = waiters;
    waiters = [];
    for (const resolve of done) resolve();
    if (!stopped) timer = setTimeout(() => void loop(), options.everyMs);
  };
  void loop();
  return {
    get down() {
      return down;
    },
    nextRound: () => new Promise<void>((resolve) => waiters.push(resolve)),
    stop() {
      stopped = true;
      clearTimeout(timer);
      for (const resolve of waiters) resolve();
    },
  };
}
