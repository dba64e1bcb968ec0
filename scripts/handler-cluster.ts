/**
 * N handler instances in separate processes (scripts/handler-instance.ts) behind a round-robin HTTP proxy on
 * loopback, as a load balancer would spread a merchant's traffic. Used by the multi-instance test and the bench.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { InstanceSettings } from './handler-instance.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const entry = fileURLToPath(new URL('./handler-instance.ts', import.meta.url));

export interface Cluster {
  /** The proxy's origin: buyers and webhooks go here. */
  url: string;
  instances: string[];
  close(): Promise<void>;
}

async function startInstance(settings: InstanceSettings, file: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', file], {
    cwd: root,
    env: { ...process.env, PAY_HANDLER_INSTANCE: JSON.stringify(settings) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => process.stderr.write(chunk));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`handler instance did not start within 60 s: ${out}`)), 60_000);
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const found = /listening (http:\/\/\S+)/.exec(out);
      if (found?.[1]) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`handler instance exited with ${code}: ${out}`));
    });
  });
  return { url, child };
}

/** Each request to the next instance in turn; bodies and headers passed through unchanged. */
export async function roundRobinProxy(targets: readonly string[]): Promise<{ url: string; close(): Promise<void> }> {
  let next = 0;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const server = http.createServer((req, res) => {
    const target = new URL(req.url ?? '/', targets[next++ % targets.length]);
    const upstream = http.request(target, { method: req.method, headers: req.headers, agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end('bad gateway');
    });
    req.pipe(upstream);
  });
  server.keepAliveTimeout = 30_000;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** `file`: another instance script (the bench's before/after comparison runs an older handler). */
export async function startCluster(count: number, settings: InstanceSettings, file = entry): Promise<Cluster> {
  const started = await Promise.allSettled(Array.from({ length: count }, () => startInstance(settings, file)));
  const children = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const stopAll = async () => {
    await Promise.all(
      children.map(async ({ child }) => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = once(child, 'exit');
        child.kill('SIGTERM');
        await exited;
      }),
    );
  };
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await stopAll();
    throw failed.reason;
  }
  const instances = children.map((c) => c.url);
  const proxy = await roundRobinProxy(instances);
  return {
    url: proxy.url,
    instances,
    async close() {
      await proxy.close();
      await stopAll();
    },
  };
}
