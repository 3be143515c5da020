import type { Scenario } from '../lib/scenario.js';
import { ceiling } from './ceiling.js';
import { create } from './create.js';
import { exportScenario } from './export.js';
import { fanout } from './fanout.js';
import { idle } from './idle.js';
import { mixed } from './mixed.js';
import { move } from './move.js';
import { paint } from './paint.js';
import { read } from './read.js';
import { rewind } from './rewind.js';
import { scaleout } from './scaleout.js';
import { search } from './search.js';

/** Every scenario `npm run bench -- <name>` knows. Add new ones here. */
export const scenarios: Record<string, Scenario<unknown>> = {
  read,
  move,
  create,
  fanout,
  search,
  export: exportScenario,
  scaleout,
  idle,
  paint,
  ceiling,
  mixed,
  rewind,
};
