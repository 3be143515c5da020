// `npm run dev`: the API server (reloading on change) and Vite (hot reload, proxying /api to it) side by side.
import { spawn } from 'node:child_process';
import process from 'node:process';

const apiPort = process.env.TAVLA_API_PORT ?? '3000';
const webPort = process.env.TAVLA_WEB_PORT ?? '5173';
const env = {
  ...process.env,
  PORT: apiPort,
  TAVLA_API_PORT: apiPort,
  TAVLA_WEB_PORT: webPort,
  // The browser talks to Vite, so that is the public address (cookies, same-origin checks, mail links).
  BASE_URL: process.env.BASE_URL ?? `http://localhost:${webPort}`,
};

const children = [
  spawn('npx', ['tsx', 'watch', '--clear-screen=false', 'src/server/main.ts'], { stdio: 'inherit', env }),
  spawn('npx', ['vite'], { stdio: 'inherit', env }),
];

let stopping = false;
/** @param {number} code */
const stop = (code) => {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  process.exitCode = code;
};
for (const child of children) child.on('exit', (code) => stop(code ?? 0));
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
