import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { runLoad, type LoadResult } from '../lib/load.js';
import { check, type Scenario } from '../lib/scenario.js';

/** What the bare server answers: 2 KB, as issue 27 measured the machine's ceiling. */
const BODY_BYTES = 2048;

/**
 * A bare Node `http` server in a process of its own answering 2 KB to every
 * request: the ceiling of this machine in this sitting (the budgets of issue
 * 27 are ratios to it, measured in the same run). Tavla's server is started
 * by the runner as for every scenario, and sits idle.
 */
const BARE_SERVER = `
const http = require('node:http');
const body = Buffer.alloc(${BODY_BYTES}, 'x');
const server = http.createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'text/plain', 'content-length': body.length });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
`;

export const ceiling: Scenario<null> = {
  name: 'ceiling',
  summary: `bare Node http answering ${BODY_BYTES / 1024} KB (this machine's ceiling for the ratios)`,
  defaults: { connections: 32, seconds: 10 },
  budgets: [],

  seed: () => Promise.resolve(null),

  async run({ connections, seconds }): Promise<LoadResult> {
    const child = spawn(process.execPath, ['-e', BARE_SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const [chunk] = (await Promise.race([
        once(child.stdout, 'data'),
        new Promise((_, reject) => setTimeout(() => reject(new Error('the bare server did not start')), 10_000)),
      ])) as [Buffer];
      const port = Number(chunk.toString().trim());
      return await runLoad({ baseUrl: `http://127.0.0.1:${port}`, connections, seconds, path: '/' });
    } finally {
      child.kill('SIGTERM');
    }
  },

  verify: (_ctx, _seed, result) =>
    Promise.resolve([check('the bare server answered', result.total > 0 && result.non2xx === 0, `${result.total} answers`)]),
};
