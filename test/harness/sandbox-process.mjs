// Test infrastructure: run the sandbox CLI as a child process and proxy paths to it.
// Used by web-test-runner.config.mjs; plain ESM, no dependencies, so any Node script can reuse it.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import http from 'node:http';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
export const sandboxCli = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));
const BASE_URL_LINE = /^\s*base_url:\s*(http:\/\/\S+)[ \t]*\r?\n/m; // a whole line, never a chunk cut mid-URL

/** Runs `stop` when this process exits or gets SIGINT/SIGTERM, so a child it started never outlives it. */
export function stopWithThisProcess(stop) {
  process.on('exit', stop);
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => {
      stop();
      // web-test-runner handles SIGINT itself and exits; otherwise exit as the signal would have.
      if (process.listenerCount(signal) === 0) process.exit(128 + (signal === 'SIGINT' ? 2 : 15));
    });
  }
}

/**
 * Starts `src/cli.ts sandbox --port 0` and resolves once it prints `base_url: http://127.0.0.1:PORT/v1`.
 * Resolves to null when the CLI does not exist yet. The child is killed when this process exits.
 * @returns {Promise<{ baseUrl: string, origin: string, stop: () => void } | null>}
 */
export async function startSandbox({ timeoutMs = 30_000, args = [] } = {}) {
  if (!existsSync(sandboxCli)) return null;
  // `node --import tsx` instead of `npx tsx`: one process, so killing it leaves no grandchild behind.
  const child = spawn(process.execPath, ['--import', 'tsx', sandboxCli, 'sandbox', '--port', '0', ...args], {
    cwd: root,
    env: process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stopped = false;
  const stop = () => {
    stopped = true;
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  };
  stopWithThisProcess(stop);

  // Keep the end of its output for diagnostics, and keep draining the pipes so a chatty sandbox never blocks.
  let tail = '';
  const remember = (chunk) => {
    tail = (tail + chunk).slice(-4_000);
  };
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', remember);

  try {
    const baseUrl = await new Promise((resolve, reject) => {
      let seen = '';
      const timer = setTimeout(() => reject(new Error(`no "base_url:" line within ${timeoutMs} ms`)), timeoutMs);
      child.stdout.on('data', (chunk) => {
        remember(chunk);
        if (seen === null) return;
        seen += chunk;
        const match = BASE_URL_LINE.exec(seen);
        if (match) {
          seen = null;
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`exited with ${signal ?? `code ${code}`} before printing "base_url:"`));
      });
    });
    child.once('exit', (code, signal) => {
      if (!stopped) console.error(`[sandbox] exited early with ${signal ?? `code ${code}`}; last output:\n${tail}`);
    });
    return { baseUrl, origin: new URL(baseUrl).origin, stop };
  } catch (error) {
    stop();
    throw new Error(`Sandbox (${sandboxCli}) did not start: ${error.message}\n${tail}`);
  }
}

// Hop-by-hop headers belong to one connection and are not forwarded (RFC 9110 §7.6.1).
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade']);
const endToEnd = (headers) => Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name)));

/**
 * A Koa middleware (web-test-runner / @web/dev-server) that streams every request whose path starts
 * with one of `prefixes` to `origin`: method, headers (Host kept, X-Forwarded-* added), body, status,
 * response headers.
 */
export function proxyMiddleware(origin, prefixes) {
  const target = new URL(origin);
  const matches = (url) => prefixes.some((prefix) => url === prefix || url.startsWith(`${prefix}/`) || url.startsWith(`${prefix}?`));
  return async function sandboxProxy(ctx, next) {
    if (!matches(ctx.url)) return next();
    ctx.respond = false; // Koa leaves ctx.res alone: the upstream response is piped into it as is.
    const { req, res } = ctx;
    await new Promise((resolve) => {
      const upstream = http.request(
        {
          hostname: target.hostname,
          port: target.port,
          method: req.method,
          path: req.url,
          headers: {
            ...endToEnd(req.headers),
            'x-forwarded-host': req.headers.host ?? '',
            'x-forwarded-proto': 'http',
            'x-forwarded-for': req.socket.remoteAddress ?? '',
          },
        },
        (response) => {
          res.writeHead(response.statusCode ?? 502, response.statusMessage, endToEnd(response.headers));
          response.pipe(res);
          response.once('end', resolve);
          response.once('error', resolve);
        },
      );
      res.once('close', () => {
        if (!res.writableFinished) upstream.destroy(); // the browser went away mid-response
        resolve();
      });
      upstream.once('error', (error) => {
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' });
        res.end(`sandbox proxy: ${error.message}`);
        resolve();
      });
      req.pipe(upstream);
    });
  };
}
