import type { FastifyRequest, preHandlerHookHandler } from 'fastify';
import type {} from '@fastify/websocket';
import type { Limits, SlotLimit } from './limits.js';

/**
 * Holds a WebSocket's slots for as long as its connection lives. Taken
 * before the upgrade (a route's `preHandler`), so beyond a bound the client
 * gets a plain HTTP 429 and no socket; given back when the TCP connection
 * closes, however that happens: a close, a client that vanished, a dropped
 * heartbeat, or an upgrade that never completed.
 */
export function holdConnectionSlots(
  limits: Limits,
  claimsOf: (request: FastifyRequest) => ReadonlyArray<readonly [SlotLimit, string]>,
): preHandlerHookHandler {
  return (request, _reply, done) => {
    // A plain GET is answered at once and holds nothing.
    if (!request.ws) return done();
    const held = limits.slots(claimsOf(request));
    if ('full' in held) return done(limits.refusal(held.full));
    const connection = request.raw.socket;
    if (connection.destroyed) held.release();
    else connection.once('close', held.release);
    done();
  };
}
