#!/usr/bin/env node
// `npx tavla <command>`: the command line (src/server/cli/main.ts).
//
// From the sources when they and tsx are here (a checkout after `npm ci`:
// what runs is always what the sources say, no build needed), else from the
// bundle `npm run build` makes (dist/server/cli.js: the container image, or
// an install without the development dependencies).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const source = path.join(root, 'src/server/cli/main.ts');
const bundle = path.join(root, 'dist/server/cli.js');

function hasTsx() {
  try {
    createRequire(import.meta.url).resolve('tsx/esm/api');
    return true;
  } catch {
    return false;
  }
}

if (existsSync(source) && hasTsx()) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(source).href);
} else if (existsSync(bundle)) {
  await import(pathToFileURL(bundle).href);
} else {
  process.stderr.write('tavla: neither the sources with tsx (npm ci) nor dist/server/cli.js (npm run build) are here\n');
  process.exit(1);
}
