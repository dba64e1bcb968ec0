/** CPU time of this process's child processes, read from /proc (Linux): per-create CPU figures for the bench. */
import { readdirSync, readFileSync } from 'node:fs';

const field = (text: string, index: number) => Number(text.slice(text.lastIndexOf(')') + 2).split(' ')[index]);

/** Milliseconds of user + system CPU spent so far by the direct children whose command line contains `match`; null off Linux. */
export function childrenCpuMs(match: string): number | null {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
  let total = 0;
  for (const pid of entries) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (field(stat, 1) !== process.pid || !readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(match)) continue;
      // utime and stime, in clock ticks (100 per second on Linux).
      total += (field(stat, 11) + field(stat, 12)) * 10;
    } catch {
      // gone between the listing and the read
    }
  }
  return total;
}

/** Milliseconds of user + system CPU spent so far by one process; null when it cannot be read. */
export function processCpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return (field(stat, 11) + field(stat, 12)) * 10;
  } catch {
    return null;
  }
}
