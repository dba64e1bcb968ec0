/**
 * A real `redis-server` for a test file: started on a free loopback port with no persistence, stopped after.
 * Debian's `redis-server` package provides the binary (declared in test/harness/system-packages.mjs; `npm test` installs it).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { systemBinary } from '../harness/system-packages.mjs';

export interface TestRedis {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** A port the OS just handed out and released: free unless another process takes it in between. */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Starts `command args` and resolves once its output says `readyText`; rejects on exit or after 20 s. */
export async function launch(port: number, extra: string[] = [], command = 'redis-server', readyText = 'Ready to accept connections'): Promise<ChildProcess> {
  const args = command === 'redis-server' ? ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...extra] : extra;
  const child = spawn(systemBinary(command), args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const limit = setTimeout(() => reject(new Error(`redis-server did not start within 20 s:\n${output}`)), 20_000);
    const settle = (error?: Error) => {
      clearTimeout(limit);
      if (error) reject(error);
      else resolve();
    };
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(readyText)) settle();
    });
    child.once('error', (error) => settle(new Error(`${command} could not run (npm test installs it as root; else apt-get install redis-server redis-sentinel): ${error.message}`)));
    child.once('exit', (code) => settle(new Error(`${command} exited with ${code}:\n${output}`)));
  });
  child.stdout?.resume();
  child.stderr?.resume();
  return child;
}

/** Stops a child (SIGTERM, or `signal`) and waits for it to exit. */
export async function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill(signal);
  await exited;
}

export async function startRedis(): Promise<TestRedis> {
  let lastError: unknown;
  // A second try covers the rare race where another process takes the free port first.
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    try {
      const child = await launch(port);
      return {
        url: `redis://127.0.0.1:${port}`,
        port,
        stop: () => stopChild(child),
      };
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}
