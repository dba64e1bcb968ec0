/**
 * The round-robin proxy of handler-cluster.ts in a process of its own, for the bench:
 * `node --import tsx test/harness/round-robin-proxy.ts URL...`; prints `listening http://127.0.0.1:PORT`.
 */
import { roundRobinProxy } from './handler-cluster.js';

const proxy = await roundRobinProxy(process.argv.slice(2));
console.log(`listening ${proxy.url}`);
process.once('SIGTERM', () => void proxy.close().finally(() => process.exit(0)));
