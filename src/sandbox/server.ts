/** The sandbox on a real socket (Node), for the CLI, the tests and anyone embedding it. */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createSandbox, type Sandbox, type SandboxOptions } from './app.js';
import { nodeFetch } from './node-listener.js';

export interface StartSandboxOptions extends SandboxOptions {
  /** 0 picks a free port. */
  port?: number;
  host?: string;
}

export interface RunningSandbox {
  /** Origin, e.g. http://127.0.0.1:4010 */
  url: string;
  baseUrl: string;
  checkoutUrl: string;
  onboardingUrl: string;
  controlUrl: string;
  sandbox: Sandbox;
  /**
   * Stops accepting and answers waiting status requests at once; with `graceMs` (the CLI's SIGTERM: 10 s), requests
   * under way get that long to be answered, each closing its connection; then every connection is closed. Default 0.
   */
  close(options?: { graceMs?: number }): Promise<void>;
}

export async function startSandbox({ port = 0, host = '127.0.0.1', ...options }: StartSandboxOptions = {}): Promise<RunningSandbox> {
  const sandbox = createSandbox(options);
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: nodeFetch(sandbox, { earlyHints: true }), port, hostname: host }, () => resolve(s));
    s.once('error', reject);
  });
  // Answers under way, so a graceful close() can wait for them; during a shutdown each closes its connection.
  const open = new Set<import('node:http').ServerResponse>();
  let closing = false;
  let allAnswered: (() => void) | undefined;
  server.on('request', (_req: unknown, res: import('node:http').ServerResponse) => {
    open.add(res);
    if (closing) res.setHeader('connection', 'close');
    res.once('close', () => {
      open.delete(res);
      if (open.size === 0) allAnswered?.();
    });
  });
  const address = server.address() as AddressInfo;
  const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${hostPart}:${address.port}`;
  sandbox.guard.serve(host);
  sandbox.guard.serve(hostPart);
  if (!options.publicUrl) sandbox.setPublicUrl(url);
  // The sandbox posts to its own receiver over loopback, even when it listens on every interface.
  sandbox.listeningAt(`http://${loopbackOf(address)}:${address.port}`);
  const origin = options.publicUrl?.replace(/\/+$/, '') ?? url;
  return {
    url,
    baseUrl: `${origin}/v1`,
    checkoutUrl: `${origin}/checkout`,
    onboardingUrl: `${origin}/onboarding`,
    controlUrl: `${origin}/sandbox`,
    sandbox,
    async close({ graceMs = 0 } = {}) {
      closing = true;
      sandbox.answerWaitsNow();
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      if (graceMs > 0 && open.size > 0) {
        for (const res of open) if (!res.headersSent) res.setHeader('connection', 'close');
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([new Promise<void>((resolve) => (allAnswered = resolve)), new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))]);
        clearTimeout(timer);
      }
      await sandbox.close();
      // Keep-alive sockets would hold close() open; the sandbox owns them all.
      (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      await stopped;
    },
  };
}

function loopbackOf(address: AddressInfo): string {
  if (address.address === '0.0.0.0') return '127.0.0.1';
  if (address.address === '::') return '[::1]';
  return address.family === 'IPv6' ? `[${address.address}]` : address.address;
}
