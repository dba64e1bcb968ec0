/**
 * A real PostgreSQL for a test file, from Debian's server binaries (/usr/lib/postgresql/N/bin; `npm test` installs
 * `postgresql`): initdb into a temporary directory, a free loopback port, its unix socket in that directory. It can
 * be SIGKILLed and started again on the same data. As root (CI), the server runs as the `postgres` or `nobody` user,
 * since PostgreSQL refuses to run as root.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { postgresBinDir } from '../harness/system-packages.mjs';
import { freePort, stopChild } from './redis-harness.js';

/** The newest Debian PostgreSQL's bin directory, or undefined when none is installed (test/harness/system-packages.mjs). */
export const postgresBin = (): string | undefined => postgresBinDir() ?? undefined;

/** The user the server runs as: ourselves, or (as root) one that exists on Debian. */
function serverUser(): { uid: number; gid: number } | undefined {
  if (userInfo().uid !== 0) return undefined;
  for (const name of ['postgres', 'nobody']) {
    try {
      const id = (flag: string) => Number(execFileSync('id', [flag, name]).toString().trim());
      return { uid: id('-u'), gid: id('-g') };
    } catch {
      // try the next name
    }
  }
  throw new Error('running as root, and neither a postgres nor a nobody user exists to run PostgreSQL as');
}

export interface TestPostgres {
  url: string;
  port: number;
  /** SIGKILLs the server: no shutdown checkpoint, as a crash. */
  kill(): Promise<void>;
  /** Starts it again on the same data directory and port (crash recovery replays the WAL). */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export async function startPostgres(): Promise<TestPostgres> {
  const bin = postgresBin();
  if (!bin) throw new Error('PostgreSQL server binaries not found in /usr/lib/postgresql/*/bin (apt-get install postgresql)');
  const dir = mkdtempSync(path.join(tmpdir(), 'pay-postgres-'));
  const data = path.join(dir, 'data');
  const user = serverUser();
  if (user) {
    chmodSync(dir, 0o755);
    chownSync(dir, user.uid, user.gid);
  }
  const as = user ? { uid: user.uid, gid: user.gid } : {};
  execFileSync(path.join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync'], { ...as, stdio: 'pipe', timeout: 120_000 });
  const port = await freePort();
  let child: ChildProcess;
  const launch = async () => {
    child = spawn(path.join(bin, 'postgres'), ['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=on', '-c', 'synchronous_commit=on'], { ...as, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const limit = setTimeout(() => reject(new Error(`postgres did not start within 60 s:\n${output}`)), 60_000);
      const seen = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('ready to accept connections')) {
          clearTimeout(limit);
          resolve();
        }
      };
      child.stdout?.on('data', seen);
      child.stderr?.on('data', seen);
      child.once('exit', (code) => {
        clearTimeout(limit);
        reject(new Error(`postgres exited with ${code}:\n${output}`));
      });
    });
  };
  await launch();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    kill: () => stopChild(child, 'SIGKILL'),
    start: launch,
    async stop() {
      await stopChild(child, 'SIGINT');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
