import { readFileSync, readdirSync } from 'node:fs';

/** USER_HZ: the unit of the CPU times in /proc (100 on Linux). */
export const CLOCK_TICKS = 100;

/** CPU seconds all processes of the machine have used so far (busy time of every CPU); null without /proc. */
export function machineBusySeconds(): number | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
    // cpu  user nice system idle iowait irq softirq steal guest guest_nice
    const [user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
    return (user! + nice! + system! + irq! + softirq! + steal!) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

/** CPU seconds (user + system) a process has used so far; null when it is gone or there is no /proc. */
export function processCpuSeconds(pid: number): number | null {
  try {
    // The fields after the command name (which may hold spaces): utime and stime are fields 14 and 15.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

/** CPU seconds used so far by every process on the machine, with its command name. */
export function processTable(): Map<number, { name: string; cpu: number }> {
  const table = new Map<number, { name: string; cpu: number }>();
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc').filter((e) => /^\d+$/.test(e));
  } catch {
    return table;
  }
  for (const entry of entries) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      table.set(Number(entry), { name, cpu: (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS });
    } catch {
      // gone meanwhile
    }
  }
  return table;
}

/** The processes that used the most CPU between two tables, leaving out `exclude` (pids). */
export function topConsumers(
  before: Map<number, { name: string; cpu: number }>,
  after: Map<number, { name: string; cpu: number }>,
  exclude: Set<number>,
  count = 3,
): { pid: number; name: string; cpu: number }[] {
  return [...after]
    .filter(([pid]) => !exclude.has(pid))
    .map(([pid, { name, cpu }]) => ({ pid, name, cpu: cpu - (before.get(pid)?.cpu ?? 0) }))
    .filter((p) => p.cpu >= 0.1)
    .sort((a, b) => b.cpu - a.cpu)
    .slice(0, count);
}
