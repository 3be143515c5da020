/**
 * npx tsx bench/profile-summary.ts <file.cpuprofile | dir> [--top N]
 *
 * Sums the self time of a V8 CPU profile (`node --cpu-prof`) by function and
 * file, and by package or project folder. `npm run bench -- <scenario> --profile`
 * prints the same for the load window; this reads a saved profile whole.
 */
import { statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { formatProfile, profilesIn, summariseProfile } from './lib/profile.js';
import { PROJECT_ROOT } from './lib/server.js';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: 'string', default: '25' } } });
if (positionals.length !== 1) {
  console.error('usage: npx tsx bench/profile-summary.ts <file.cpuprofile | dir> [--top N]');
  process.exit(2);
}
const target = positionals[0]!;
const files = statSync(target).isDirectory() ? profilesIn(target) : [target];
for (const file of files) console.log(`${formatProfile(summariseProfile(file, PROJECT_ROOT), Number(values.top))}\n`);
