/**
 * Real Redis deployments for the failover tests, from Debian's binaries: a 3-master Cluster (`redis-server
 * --cluster-enabled`, `redis-cli --cluster create`), a Sentinel group (master, replica, `redis-sentinel`), and a
 * single server that can be killed and started again on its port. Each lives in a temporary directory, stopped after.
 */
import { execFile, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { systemBinary } from '../harness/system-packages.mjs';
import { freePort, launch, stopChild } from './redis-harness.js';

const run = promisify(execFile);
const cli = async (port: number, ...args: string[]) => (await run(systemBinary('redis-cli'), ['-h', '127.0.0.1', '-p', String(port), ...args], { timeout: 20_000 })).stdout;

async function until(probe: () => Promise<boolean>, what: string, limitMs = 30_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await probe().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A free port whose Cluster bus port (+10,000) is free as well. */
async function clusterPort(): Promise<number> {
  for (;;) {
    const port = await freePort();
    if (port + 10_000 > 65_535) continue;
    const bus = await freePort();
    if (bus !== port + 10_000) return port;
  }
}

export interface TestCluster {
  ports: number[];
  url: string;
  stop(): Promise<void>;
}

export async function startRedisCluster(masters = 3): Promise<TestCluster> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pay-redis-cluster-'));
  const ports: number[] = [];
  const children: ChildProcess[] = [];
  const stop = async () => {
    await Promise.all(children.map((child) => stopChild(child)));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < masters; i++) {
      const port = await clusterPort();
      ports.push(port);
      children.push(await launch(port, ['--cluster-enabled', 'yes', '--cluster-config-file', path.join(dir, `nodes-${port}.conf`), '--dir', dir]));
    }
    await run(systemBinary('redis-cli'), ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '0', '--cluster-yes'], { timeout: 60_000 });
    for (const port of ports) await until(async () => (await cli(port, 'CLUSTER', 'INFO')).includes('cluster_state:ok'), `cluster node ${port}`);
    return { ports, url: `redis://127.0.0.1:${ports[0]}`, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

export interface TestSentinel {
  name: string;
  sentinelPort: number;
  masterPort: number;
  replicaPort: number;
  /** SIGKILLs the master: Sentinel promotes the replica. */
  killMaster(): Promise<void>;
  /** Resolves once Sentinel names the replica as the master. */
  promoted(limitMs?: number): Promise<void>;
  stop(): Promise<void>;
}

export async function startSentinelGroup(): Promise<TestSentinel> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pay-redis-sentinel-'));
  const name = 'paymaster';
  const children: ChildProcess[] = [];
  const stop = async () => {
    await Promise.all(children.map((child) => stopChild(child)));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const masterPort = await freePort();
    // Their own directory: a replica writes the master's snapshot (dump.rdb) where it runs.
    const master = await launch(masterPort, ['--dir', dir]);
    children.push(master);
    const replicaPort = await freePort();
    children.push(await launch(replicaPort, ['--replicaof', '127.0.0.1', String(masterPort), '--dir', dir]));
    await until(async () => (await cli(replicaPort, 'INFO', 'replication')).includes('master_link_status:up'), 'the replica to sync');
    const sentinelPort = await freePort();
    const config = path.join(dir, 'sentinel.conf');
    writeFileSync(
      config,
      [
        `port ${sentinelPort}`,
        'bind 127.0.0.1',
        `dir ${dir}`,
        `sentinel monitor ${name} 127.0.0.1 ${masterPort} 1`,
        `sentinel down-after-milliseconds ${name} 1000`,
        `sentinel failover-timeout ${name} 5000`,
        '',
      ].join('\n'),
    );
    children.push(await launch(sentinelPort, [config], 'redis-sentinel', '+monitor master'));
    // Sentinel learns about the replica from the master's INFO (every 10 s at first).
    await until(async () => (await cli(sentinelPort, 'SENTINEL', 'REPLICAS', name)).includes(String(replicaPort)), 'Sentinel to see the replica', 30_000);
    return {
      name,
      sentinelPort,
      masterPort,
      replicaPort,
      killMaster: () => stopChild(master, 'SIGKILL'),
      promoted: (limitMs = 30_000) => until(async () => (await cli(sentinelPort, 'SENTINEL', 'GET-MASTER-ADDR-BY-NAME', name)).includes(String(replicaPort)), 'the failover', limitMs),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

export interface RestartableRedis {
  url: string;
  port: number;
  /** SIGKILLs it (its memory is gone: no persistence). */
  kill(): Promise<void>;
  /** Starts it again, empty, on the same port. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export async function startRestartableRedis(): Promise<RestartableRedis> {
  const port = await freePort();
  let child = await launch(port);
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    kill: () => stopChild(child, 'SIGKILL'),
    async start() {
      child = await launch(port);
    },
    stop: () => stopChild(child),
  };
}
