import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { resolveTarget } from './address-guard.js';

/** How long a receiver has to answer. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** What is read of a receiver's answer: nothing is kept, the read only lets the connection end cleanly. */
const MAX_RESPONSE_BYTES = 64 * 1024;

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`: the timestamp inside the signature stops replays of old bodies. */
export function signature(secret: string, body: string, unixSeconds: number): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}

export interface SendResult {
  ok: boolean;
  /** The receiver's status, or null when there was no answer. */
  status: number | null;
  error: string | null;
  /** From the start of the name's lookup to the end of the answer (or the failure). */
  elapsedMs: number;
}

export interface Outgoing {
  url: string;
  body: string;
  secret: string;
  event: string;
  deliveryId: number;
  allowPrivate: boolean;
  now: Date;
  timeoutMs?: number;
}

/**
 * POSTs one delivery. The host is resolved and checked here, at the moment of
 * sending, and the connection goes to exactly the address checked (a fixed
 * `lookup`): a name that resolved to a public address for the check cannot
 * resolve to a private one for the connection (DNS rebinding). Redirects are
 * not followed; anything but a 2xx answer within the timeout is a failure.
 */
export async function sendDelivery(out: Outgoing): Promise<SendResult> {
  const started = performance.now();
  const elapsedMs = () => Math.round(performance.now() - started);
  let url: URL;
  let pinned: LookupFunction;
  try {
    url = new URL(out.url);
    const targets = await resolveTarget(url, out.allowPrivate);
    // Every one was checked, so all may be offered (the connection tries them in turn when the first fails).
    pinned = (_hostname, options, callback) => {
      if (options.all) callback(null, targets);
      else callback(null, targets[0]!.address, targets[0]!.family);
    };
  } catch (error) {
    return { ok: false, status: null, error: error instanceof Error ? error.message : String(error), elapsedMs: elapsedMs() };
  }
  const client = url.protocol === 'https:' ? https : http;
  const timeoutMs = out.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const finish = (result: Omit<SendResult, 'elapsedMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, elapsedMs: elapsedMs() });
    };
    const request = client.request(
      url,
      {
        method: 'POST',
        lookup: pinned,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(out.body),
          'user-agent': 'Tavla-Webhooks',
          'x-tavla-event': out.event,
          'x-tavla-delivery': String(out.deliveryId),
          'x-tavla-signature': signature(out.secret, out.body, Math.floor(out.now.getTime() / 1000)),
        },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_RESPONSE_BYTES) response.destroy();
        });
        const done = () =>
          finish({ ok: status >= 200 && status < 300, status, error: status >= 200 && status < 300 ? null : `HTTP ${status}` });
        response.on('end', done);
        response.on('close', done);
        response.on('error', done);
      },
    );
    const timer = setTimeout(() => {
      finish({ ok: false, status: null, error: `no answer within ${timeoutMs / 1000} s` });
      request.destroy();
    }, timeoutMs);
    // The code only: a connection error's message names the address connected to.
    request.on('error', (error: NodeJS.ErrnoException) =>
      finish({ ok: false, status: null, error: `connection failed (${error.code ?? 'error'})` }),
    );
    request.end(out.body);
  });
}
