/**
 * `npx pay-checkout deliveries`: what the relay still has to deliver, or gave up on, read from the shared outbox;
 * `deliveries redeliver ID` sends one again now, with the same id (and retries it afresh if the shop still fails).
 */
import type { Relay, RelayedNotice } from './relay.js';

export interface RunDeliveriesInput {
  relay: Pick<Relay, 'list' | 'redeliver'>;
  /** The words after `deliveries`: none (list), `--json`, `--given-up`, or `redeliver ID`. */
  args: readonly string[];
  print: (line: string) => void;
}

export const deliveriesUsage = 'usage: pay-checkout deliveries [--json] [--given-up | --pending] | pay-checkout deliveries redeliver ID';

const row = (n: RelayedNotice) =>
  [n.id, n.type, n.id_order ?? '-', n.state === 'pending' ? 'pending' : 'given up', `${n.attempts} attempt${n.attempts === 1 ? '' : 's'}`, n.next_at ? `next ${n.next_at}` : '', n.last_error ? `last: ${n.last_error}` : '']
    .filter((cell) => cell !== '')
    .join('  ');

/**
 * Lists or redelivers over a relay already made; resolves to the exit status (0 done, 1 not found or not delivered, 2
 * bad usage). The command around it (its settings, its store) is serve/command.ts's `deliveriesCommand`.
 */
export async function runDeliveries({ relay, args, print }: RunDeliveriesInput): Promise<number> {
  const [first, second, ...rest] = args;
  if (first === 'redeliver') {
    if (!second || rest.length > 0 || second.startsWith('-')) {
      print(deliveriesUsage);
      return 2;
    }
    const result = await relay.redeliver(second);
    if (!result) {
      print(`No notice ${second} in the outbox.`);
      return 1;
    }
    if (result.queued) print(`${second}: due now; another instance is sending it.`);
    else if (result.ok) print(`${second}: delivered (${result.status}).`);
    else print(`${second}: not delivered (${result.error}); it will be retried.`);
    return result.ok || result.queued ? 0 : 1;
  }
  const flags = new Set(args);
  for (const flag of flags) {
    if (!['--json', '--given-up', '--pending'].includes(flag)) {
      print(deliveriesUsage);
      return 2;
    }
  }
  const states = flags.has('--given-up') && !flags.has('--pending') ? (['given_up'] as const) : flags.has('--pending') && !flags.has('--given-up') ? (['pending'] as const) : (['pending', 'given_up'] as const);
  const notices = await relay.list({ states });
  if (flags.has('--json')) {
    print(JSON.stringify(notices));
    return 0;
  }
  if (notices.length === 0) {
    print('No notices pending or given up.');
    return 0;
  }
  for (const notice of notices) print(row(notice));
  return 0;
}
