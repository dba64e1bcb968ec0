/**
 * What a Redis deployment can lose, read from the servers at connection: append-only file and its fsync policy,
 * replicas per master. A claim survives a crash or failover only if AOF with `appendfsync always` kept it, or a
 * replica acknowledged it (WAIT) before the service was called.
 */
import type { RedisLink, RedisTopology } from './link.js';

export interface RedisDurability {
  topology: RedisTopology;
  /** Every master writes an append-only file. */
  appendOnly: boolean;
  /** Its fsync policy (`always`, `everysec`, `no`), or undefined where CONFIG is refused (managed services). */
  appendFsync: string | undefined;
  /** The fewest replicas any master has. */
  replicas: number;
  /** Replicas that acknowledge each claim (WAIT) before the service is called. */
  replicaAcks: number;
  /** Whether a claim this store acknowledged can be forgotten by a crash, restart or failover. */
  canLoseClaims: boolean;
}

const field = (info: string, name: string) => new RegExp(`^${name}:(.*)$`, 'm').exec(info)?.[1]?.trim();

export async function readDurability(link: RedisLink, wanted: number | 'auto'): Promise<RedisDurability> {
  const infos = (await link.onEveryMaster(['INFO'])).map(String);
  const replicas = Math.min(...infos.map((info) => Number(field(info, 'connected_slaves') ?? '0')));
  const appendOnly = infos.every((info) => field(info, 'aof_enabled') === '1');
  let appendFsync: string | undefined;
  try {
    const reply = (await link.send(undefined, ['CONFIG', 'GET', 'appendfsync'])) as unknown;
    appendFsync = Array.isArray(reply) ? String(reply[1]) : String(Object.values(reply as object)[0]);
  } catch {
    appendFsync = undefined;
  }
  const replicaAcks = wanted === 'auto' ? Math.min(replicas, 1) : wanted;
  const canLoseClaims = replicaAcks === 0 && !(appendOnly && appendFsync === 'always');
  return { topology: link.topology, appendOnly, appendFsync, replicas, replicaAcks, canLoseClaims };
}

/** The start-up line: what is kept, and what a crash costs. */
export function describeDurability(d: RedisDurability): string {
  const kind = { single: 'a single server (or managed primary)', cluster: 'a Cluster', sentinel: 'a Sentinel group' }[d.topology];
  const aof = d.appendOnly ? `AOF on (appendfsync ${d.appendFsync ?? 'unknown'})` : 'no AOF';
  const acks = d.replicaAcks > 0 ? `each claim acknowledged by ${d.replicaAcks} replica(s) (WAIT)` : `${d.replicas} replica(s), claims not acknowledged by any`;
  if (!d.canLoseClaims) return `${kind}, ${aof}, ${acks}: a claim survives a crash or failover.`;
  const loss = d.appendOnly ? 'a host crash forgets the last second of claims' : 'a restart, crash or failover forgets claims';
  return `${kind}, ${aof}, ${acks}: CAN LOSE CLAIMS (${loss}; a retried create can then make a second order). See docs/site/servers/exactly-once.md.`;
}
