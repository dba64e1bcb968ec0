/** A small closed-loop load generator over keep-alive HTTP/1.1: N workers, each sends its next request as soon as the last answers. */
import http from 'node:http';

export interface LoadRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface LoadResult {
  requests: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Non-2xx answers and network failures, by status ("network" for the latter). */
  errors: Record<string, number>;
  errorCount: number;
  /** One example body per failing status, to say why. */
  errorSamples: Record<string, string>;
}

export interface LoadOptions {
  origin: string;
  concurrency: number;
  durationMs: number;
  /** Not measured: lets connections open and the JIT warm up. */
  warmupMs: number;
  /** Builds request number `n` (distinct keys per request). */
  request: (n: number) => LoadRequest;
}

export interface PacedOptions {
  origin: string;
  /** Requests started per second, whether or not the earlier ones have been answered (an open loop, as buyers come). */
  perSecond: number;
  durationMs: number;
  request: (n: number) => LoadRequest;
}

/** Starts `perSecond` requests a second for `durationMs`, each timed from its own start: latency as a steady trickle of buyers meets it. */
export async function runPaced(options: PacedOptions): Promise<LoadResult> {
  const target = new URL(options.origin);
  const agent = new http.Agent({ keepAlive: true });
  const latencies: number[] = [];
  const errors: Record<string, number> = {};
  const errorSamples: Record<string, string> = {};
  const pending: Promise<void>[] = [];
  const total = Math.max(1, Math.round((options.perSecond * options.durationMs) / 1000));
  const started = performance.now();
  for (let n = 0; n < total; n++) {
    const due = started + (n * 1000) / options.perSecond;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const request = options.request(n);
    const sent = performance.now();
    pending.push(
      new Promise<void>((resolve) => {
        const settle = (status: number | 'network', body: string) => {
          latencies.push(performance.now() - sent);
          if (status === 'network' || status < 200 || status >= 300) {
            errors[String(status)] = (errors[String(status)] ?? 0) + 1;
            errorSamples[String(status)] ??= body.slice(0, 300);
          }
          resolve();
        };
        const req = http.request({ host: target.hostname, port: target.port, method: request.method, path: request.path, headers: request.headers, agent }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => settle(res.statusCode ?? 0, Buffer.concat(chunks).toString('utf8')));
          res.on('error', (error) => settle('network', error.message));
        });
        req.on('error', (error) => settle('network', error.message));
        req.end(request.body);
      }),
    );
  }
  await Promise.all(pending);
  const elapsed = performance.now() - started;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const errorCount = Object.values(errors).reduce((sum, count) => sum + count, 0);
  return { requests: latencies.length, perSecond: latencies.length / (elapsed / 1000), p50Ms: percentile(latencies, 0.5), p99Ms: percentile(latencies, 0.99), errors, errorCount, errorSamples };
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const target = new URL(options.origin);
  // Node's http client with a keep-alive pool costs the load generator less CPU than fetch, which matters on 2 cores.
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.concurrency });
  let n = 0;
  const latencies: number[] = [];
  const errors: Record<string, number> = {};
  const errorSamples: Record<string, string> = {};
  let measuring = false;
  let stopping = false;

  const send = (request: LoadRequest) =>
    new Promise<{ status: number | 'network'; body: string }>((resolve) => {
      const req = http.request(
        { host: target.hostname, port: target.port, method: request.method, path: request.path, headers: request.headers, agent },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', (error) => resolve({ status: 'network', body: error.message }));
        },
      );
      req.on('error', (error) => resolve({ status: 'network', body: error.message }));
      req.end(request.body);
    });

  const worker = async () => {
    while (!stopping) {
      const started = performance.now();
      const { status, body } = await send(options.request(n++));
      if (!measuring) continue;
      latencies.push(performance.now() - started);
      if (status === 'network' || status < 200 || status >= 300) {
        const key = String(status);
        errors[key] = (errors[key] ?? 0) + 1;
        errorSamples[key] ??= body.slice(0, 300);
      }
    }
  };

  const workers = Array.from({ length: options.concurrency }, worker);
  await sleep(options.warmupMs);
  measuring = true;
  const started = performance.now();
  await sleep(options.durationMs);
  measuring = false;
  const elapsed = performance.now() - started;
  stopping = true;
  await Promise.all(workers);
  agent.destroy();

  latencies.sort((a, b) => a - b);
  const errorCount = Object.values(errors).reduce((sum, count) => sum + count, 0);
  return {
    requests: latencies.length,
    perSecond: latencies.length / (elapsed / 1000),
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    errors,
    errorCount,
    errorSamples,
  };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
