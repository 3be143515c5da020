import autocannon from 'autocannon';

export type LoadRequest = autocannon.Request;
export type LoadClient = autocannon.Client;

export interface LoadOptions {
  /** The server, `http://host:port`. */
  baseUrl: string;
  connections: number;
  seconds: number;
  method?: LoadRequest['method'];
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /**
   * Called once per connection before it sends anything: the place to give
   * a connection its own requests (`client.setRequests`) with its own state.
   */
  setupClient?: (client: LoadClient) => void;
  /** Seconds to wait for one response before counting a timeout. */
  timeoutSeconds?: number;
}

export interface LoadResult {
  connections: number;
  /** Wall-clock seconds the load ran. */
  seconds: number;
  /** Completed responses (any status). */
  total: number;
  /** Average completed responses per second over the run. */
  requestsPerSecond: number;
  /** Latencies of every completed response, in ms (not bucketed). */
  latency: { mean: number; p50: number; p90: number; p99: number; max: number };
  non2xx: number;
  /** Responses by status code. */
  statusCodes: Record<string, number>;
  /** Connection errors, timeouts included. */
  errors: number;
  timeouts: number;
  /** When the load ran, on the monotonic clock in µs (the clock V8 CPU profiles use on Linux). */
  window: { startUs: number; endUs: number };
  /** A scenario's own figures beside the load's (printed with the report, kept in `--json`). */
  extra?: Record<string, number>;
}

const nowUs = () => Number(process.hrtime.bigint() / 1000n);

/**
 * Runs autocannon in this process against the server for a fixed duration
 * (pipelining 1) and summarises it. Latency percentiles come from every
 * response time autocannon reports, kept unbucketed, so sub-millisecond
 * figures stay exact.
 */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const latencies: number[] = [];
  const startUs = nowUs();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.baseUrl + options.path,
        connections: options.connections,
        duration: options.seconds,
        pipelining: 1,
        timeout: options.timeoutSeconds ?? 10,
        method: options.method ?? 'GET',
        headers: options.headers ?? {},
        ...(options.body === undefined ? {} : { body: options.body }),
        ...(options.setupClient ? { setupClient: options.setupClient } : {}),
      },
      (error: Error | null, result: autocannon.Result) => (error ? reject(error) : resolve(result)),
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => {
      latencies.push(responseTime);
    });
  });

  const endUs = nowUs();
  const seconds = (result.finish.getTime() - result.start.getTime()) / 1000;
  const statusCodes: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = stat.count ?? 0;
  return {
    connections: options.connections,
    seconds,
    total: latencies.length,
    requestsPerSecond: seconds > 0 ? latencies.length / seconds : 0,
    latency: latencySummary(latencies),
    non2xx: result.non2xx,
    statusCodes,
    errors: result.errors,
    timeouts: result.timeouts,
    window: { startUs, endUs },
  };
}

/** Mean, nearest-rank percentiles and maximum of timings in ms, in any order (the scenarios that time their own work use it too). */
export function latencySummary(values: readonly number[]): LoadResult['latency'] {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    mean: sorted.length ? sorted.reduce((sum, v) => sum + v, 0) / sorted.length : 0,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? 0,
  };
}

/** Nearest-rank percentile of sorted values (0 for none). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}
