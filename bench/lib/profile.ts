import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The parts of a V8 `.cpuprofile` (what `node --cpu-prof` writes) this summary reads. */
interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface SelfTime {
  /** `function (file:line)`, or a V8 pseudo-frame such as `(garbage collector)`. */
  name: string;
  ms: number;
}

export interface ProfileSummary {
  file: string;
  /** Whether only the samples inside a time window (the load) were counted. */
  windowed: boolean;
  /** Sampled wall time, ms. */
  totalMs: number;
  /** Sampled time not idle, ms. */
  busyMs: number;
  /** Self time by function and file, largest first. */
  functions: SelfTime[];
  /** Self time by where the code lives: a package, a project folder, node internals, V8. */
  places: SelfTime[];
}

/** Sums self time (the sample intervals a frame was on top of the stack) by function+url and by place. */
export function summariseProfile(file: string, projectRoot: string, window?: { startUs: number; endUs: number }): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const frames = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const byFunction = new Map<string, number>();
  const byPlace = new Map<string, number>();
  let totalUs = 0;
  let idleUs = 0;
  // timeDeltas[i] is the time from sample i-1 to sample i: charge the interval after a sample to its frame.
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i] ?? 0;
    const us = profile.timeDeltas[i + 1] ?? Math.max(0, profile.endTime - at);
    const frame = frames.get(profile.samples[i]!);
    if (!frame || (window && (at < window.startUs || at > window.endUs))) continue;
    totalUs += us;
    if (frame.functionName === '(idle)') {
      idleUs += us;
      continue;
    }
    const where = shortUrl(frame.url, projectRoot);
    const name = where ? `${frame.functionName || '(anonymous)'} (${where}:${frame.lineNumber + 1})` : frame.functionName;
    byFunction.set(name, (byFunction.get(name) ?? 0) + us);
    const place = placeOf(frame.url, frame.functionName, projectRoot);
    byPlace.set(place, (byPlace.get(place) ?? 0) + us);
  }
  const sorted = (m: Map<string, number>) => [...m].map(([name, us]) => ({ name, ms: us / 1000 })).sort((a, b) => b.ms - a.ms);
  return {
    file,
    windowed: window !== undefined,
    totalMs: totalUs / 1000,
    busyMs: (totalUs - idleUs) / 1000,
    functions: sorted(byFunction),
    places: sorted(byPlace),
  };
}

/** The `.cpuprofile` files in a folder, largest first (the main thread's is the big one). */
export function profilesIn(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => path.join(dir, f))
    .sort((a, b) => statSync(b).size - statSync(a).size);
}

export function formatProfile(summary: ProfileSummary, top = 25): string {
  const pct = (ms: number) => `${((100 * ms) / summary.busyMs).toFixed(1).padStart(5)}%`;
  const row = (e: SelfTime) => `  ${e.ms.toFixed(0).padStart(7)} ms ${pct(e.ms)}  ${e.name}`;
  return [
    `CPU profile ${summary.file}`,
    `  ${summary.windowed ? 'during the load only: ' : ''}sampled ${(summary.totalMs / 1000).toFixed(1)} s, busy ${(summary.busyMs / 1000).toFixed(1)} s ` +
      `(${((100 * summary.busyMs) / summary.totalMs).toFixed(0)}%); percentages are of busy time`,
    `top ${top} functions by self time:`,
    ...summary.functions.slice(0, top).map(row),
    'self time by place:',
    ...summary.places.slice(0, 15).map(row),
  ].join('\n');
}

function shortUrl(url: string, projectRoot: string): string {
  if (url === '') return '';
  let p = url.startsWith('file://') ? fileURLToPath(url) : url;
  const nm = p.lastIndexOf('/node_modules/');
  if (nm >= 0) return p.slice(nm + '/node_modules/'.length);
  if (p.startsWith(projectRoot + path.sep)) p = p.slice(projectRoot.length + 1);
  return p;
}

function placeOf(url: string, functionName: string, projectRoot: string): string {
  if (url === '') return functionName.startsWith('(') ? functionName : '(native / V8 builtins)';
  if (url.startsWith('node:')) return 'node internals';
  const short = shortUrl(url, projectRoot);
  if (url.includes('/node_modules/')) {
    const parts = short.split('/');
    return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  const parts = short.split('/');
  // src/server/features/cards/x.ts → src/server/features/cards
  return parts.slice(0, Math.min(parts.length - 1, parts[2] === 'features' ? 4 : 3)).join('/') || short;
}
