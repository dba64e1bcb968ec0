/**
 * N handler instances in separate processes (test/harness/handler-instance.ts) behind a round-robin HTTP proxy on
 * loopback, as a load balancer would spread a merchant's traffic. Used by the multi-instance test and the bench.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { InstanceSettings } from './handler-instance.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const entry = fileURLToPath(new URL('./handler-instance.ts', import.meta.url));
const proxyEntry = fileURLToPath(new URL('./round-robin-proxy.ts', import.meta.url));

export interface Cluster {
  /** The proxy's origin: buyers and webhooks go here. */
  url: string;
  instances: string[];
  /** The instances' process ids, in the order of `instances` (the bench reads each one's CPU). */
  pids: number[];
  close(): Promise<void>;
}

/** A script in its own process, once it prints `listening http://…`; killed with the cluster. */
async function startListening(file: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', file, ...args], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => process.stderr.write(chunk));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${file} did not start within 60 s: ${out}`)), 60_000);
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
      reject(new Error(`${file} exited with ${code}: ${out}`));
    });
  });
  return { url, child };
}

const startInstance = (settings: InstanceSettings, file: string) => startListening(file, [], { PAY_HANDLER_INSTANCE: JSON.stringify(settings) });

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

/**
 * The proxy in a process of its own (test/harness/round-robin-proxy.ts): the bench counts its CPU apart, and the load
 * generator does not share a thread with it.
 */
export async function startProxyProcess(targets: readonly string[]): Promise<{ url: string; close(): Promise<void> }> {
  const { url, child } = await startListening(proxyEntry, [...targets], {});
  return { url, close: () => stopChild(child) };
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

export interface ClusterOptions {
  /** Another instance script (a before/after comparison can run an older handler). */
  file?: string;
  /** The proxy in its own process (the bench) instead of in this one (the tests). */
  proxyProcess?: boolean;
}

export async function startCluster(count: number, settings: InstanceSettings, options: ClusterOptions = {}): Promise<Cluster> {
  const started = await Promise.allSettled(Array.from({ length: count }, () => startInstance(settings, options.file ?? entry)));
  const children = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const stopAll = () => Promise.all(children.map(({ child }) => stopChild(child)));
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await stopAll();
    throw failed.reason;
  }
  const instances = children.map((c) => c.url);
  const proxy = options.proxyProcess ? await startProxyProcess(instances) : await roundRobinProxy(instances);
  return {
    url: proxy.url,
    instances,
    pids: children.map(({ child }) => child.pid ?? 0),
    async close() {
      await proxy.close();
      await stopAll();
    },
  };
}
