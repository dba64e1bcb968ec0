/** The sandbox behind Node's http server (startSandbox and the Vite plugin): a `drop` fault destroys the socket. */
import type { Http2Bindings, HttpBindings } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { Sandbox } from './app.js';
import { ConnectionDropped } from './faults.js';

/**
 * A fetch callback for @hono/node-server, which passes the Node request as `env.incoming`. `earlyHints`: a hosted
 * page request first gets a 103 naming its first screen's modules (HTTP/1.1 too; Chromium uses them from HTTP/2 on).
 */
export function nodeFetch(sandbox: Sandbox, { earlyHints = false }: { earlyHints?: boolean } = {}) {
  return async (request: Request, env: HttpBindings | Http2Bindings): Promise<Response> => {
    const hints = earlyHints ? sandbox.earlyHints(request) : [];
    if (hints.length > 0 && 'writeEarlyHints' in env.outgoing) env.outgoing.writeEarlyHints({ link: hints });
    try {
      return await sandbox.fetch(request);
    } catch (error) {
      if (!(error instanceof ConnectionDropped)) throw error;
      env.incoming.socket.destroy();
      // The adapter's own marker for "already answered": it writes nothing to the destroyed socket.
      return RESPONSE_ALREADY_SENT;
    }
  };
}
