// `npm run build`'s server half: the service, the restore command and the command line bundled into `dist/server`.
//
// Why a bundle rather than tsc's one file per module: V8 keeps the source text
// of every module it loads for as long as the process lives (lazy compilation
// reads it again). Loaded one by one, Tavla and its packages are ~560 modules
// and 7.2 MiB of source text, comments and indentation included; bundled with
// whitespace and syntax minified they take less than half of that, and an idle
// server holds 9–13 MiB less (bench/README.md, "idle"). Identifiers are not
// minified, so a stack trace in the log still names its functions (and no
// `keepNames`: it wraps every closure created, 30 % of `read`'s throughput).
import { readFile, rm, writeFile } from 'node:fs/promises';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Bundles into `outdir` (relative to the project); answers the files written. */
export async function buildServer(outdir = 'dist/server') {
  // Chunk names carry a hash of their content: without this, every build would leave the last one's beside its own.
  await rm(path.join(root, outdir), { recursive: true, force: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: [
      'src/server/main.ts',
      'src/server/restore.ts',
      // `npx tavla` in the container, where the sources are not (bin/tavla.mjs).
      { in: 'src/server/cli/main.ts', out: 'cli' },
      // The import worker thread, started from beside the code that needs it (prepare-in-worker.ts).
      { in: 'src/server/features/board-import/prepare-worker.ts', out: 'import-worker' },
    ],
    outdir,
    bundle: true,
    // Code loaded with `import()` (MCP, mail, exports) stays in chunks of its own, loaded when first used.
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: 'linked',
    external: [
      // A native addon, loaded from node_modules.
      'better-sqlite3',
      'better-sqlite3-node20',
      // pg's optional native binding, not installed.
      'pg-native',
      // Serves the reference page's files from its own folder.
      '@fastify/swagger-ui',
    ],
    // Packages written as CommonJS ask for `require` and `__dirname`, which ES modules lack.
    banner: {
      js: [
        "import { createRequire as __createRequire } from 'node:module';",
        "import { fileURLToPath as __fileURLToPath } from 'node:url';",
        "import { dirname as __pathDirname } from 'node:path';",
        'const require = __createRequire(import.meta.url);',
        'const __filename = __fileURLToPath(import.meta.url);',
        'const __dirname = __pathDirname(__filename);',
      ].join(' '),
    },
    logLevel: 'warning',
    metafile: true,
  });
  const outputs = Object.keys(result.metafile.outputs);
  for (const file of outputs.filter((f) => f.endsWith('.js'))) await asciiOnly(path.join(root, file));
  return outputs;
}

/**
 * esbuild leaves a character beyond ASCII in a regular expression as it is
 * (markdown-it has one: `…`), and V8 stores a source text holding even one
 * character beyond Latin-1 at two bytes per character: 2.4 MiB more for the
 * main chunk. `\uXXXX` means the same in a regular expression, a string or
 * an identifier.
 * @param {string} file
 */
async function asciiOnly(file) {
  const text = await readFile(file, 'utf8');
  // eslint-disable-next-line no-control-regex
  const escaped = text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (escaped !== text) await writeFile(file, escaped);
}

// `node scripts/build-server.mjs [outdir]`
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const outdir = process.argv[2] ?? 'dist/server';
  const outputs = await buildServer(outdir);
  process.stdout.write(`server bundled: ${outputs.filter((f) => f.endsWith('.js')).length} files in ${outdir}\n`);
}
