import type net from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AHEAD, LATER, SETTLE } from '../ahead.js';
import { PreparingClient } from './pg-prepared.js';

const server = process.env.TEST_DATABASE_URL;

describe.skipIf(!server)('the PostgreSQL pool client', () => {
  // Typed as the pg.Client it is (its own override forwards every overload untyped).
  let client: pg.Client;

  beforeAll(async () => {
    client = new PreparingClient({ connectionString: server });
    await client.connect();
  });
  afterAll(() => client.end());

  it('answers BEGIN and statements sent ahead at once; the next statement answers after both ran', async () => {
    await client.query('begin');
    // The server is busy with this for 300 ms; its caller is not kept waiting (awaited, it would lose to the timer).
    const ahead = client.query(`select pg_sleep(0.3)${AHEAD}`).then(() => 'ahead');
    const timer = new Promise((resolve) => setTimeout(() => resolve('timer'), 100));
    expect(await Promise.race([ahead, timer])).toBe('ahead');
    const next = client.query<{ n: number }>('select $1::int as n', [7]);
    expect(await Promise.race([next.then(() => 'next'), timer])).toBe('timer');
    expect((await next).rows).toEqual([{ n: 7 }]);
    await client.query('commit');
  });

  it('fails the statement after one sent ahead that failed, with the error that explains it', async () => {
    await client.query('begin');
    await client.query(`release savepoint nowhere${AHEAD}`);
    await expect(client.query('select $1::int as n', [1])).rejects.toThrow(/savepoint "nowhere" does not exist/);
    await client.query('rollback');
    await client.query('begin');
    await client.query(`select $1::int${AHEAD}`, ['not a number']);
    await expect(client.query('select $1::int as n', [1])).rejects.toThrow(/invalid input syntax for type integer/);
    await client.query('rollback');
    // The connection is fine afterwards, and the error was taken by that statement alone.
    expect((await client.query<{ n: number }>('select $1::int as n', [2])).rows).toEqual([{ n: 2 }]);
  });

  it('answers SETTLE itself: at once with nothing ahead, else once that has answered, with its error', async () => {
    await client.query('begin');
    const timer = () => new Promise((resolve) => setTimeout(() => resolve('timer'), 100));
    expect(await Promise.race([client.query(SETTLE).then(() => 'settled'), timer()])).toBe('settled');
    await client.query(`select pg_sleep(0.3)${AHEAD}`);
    const settled = client.query(SETTLE).then(() => 'settled');
    expect(await Promise.race([settled, timer()])).toBe('timer');
    expect(await settled).toBe('settled');
    await client.query(`select $1::int${AHEAD}`, ['not a number']);
    await expect(client.query(SETTLE)).rejects.toThrow(/invalid input syntax for type integer/);
    // The error was taken by SETTLE: the transaction is aborted, as PostgreSQL says, and nothing else is blamed.
    await expect(client.query('select 1')).rejects.toThrow(/current transaction is aborted/);
    await client.query('rollback');
    expect((await client.query<{ n: number }>('select $1::int as n', [3])).rows).toEqual([{ n: 3 }]);
  });

  it('sends what goes ahead in one write with the statement behind it; with nothing behind, by the end of the turn', async () => {
    const socket = client.connection.stream as net.Socket;
    const spies = [vi.spyOn(socket, '_write'), vi.spyOn(socket, '_writev')];
    let before = 0;
    const writes = () => spies.reduce((n, spy) => n + spy.mock.calls.length, 0) - before;
    try {
      await client.query('begin');
      await client.query(`select $1::int${AHEAD}`, [1]);
      expect((await client.query<{ n: number }>('select $1::int as n', [2])).rows).toEqual([{ n: 2 }]);
      expect(writes()).toBe(1);
      await client.query('commit');

      // Outside a transaction nothing may follow: the statement still reaches the server, once this turn has ended.
      await client.query('create temporary table sent (n int)');
      before += writes();
      await client.query(`insert into sent values ($1)${AHEAD}`, [5]);
      expect(writes()).toBe(0);
      await new Promise((resolve) => setImmediate(resolve));
      expect(writes()).toBe(1);
      expect((await client.query('select n from sent')).rows).toEqual([{ n: 5 }]);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });

  it('holds a statement answered later until the next that waits, and answers it with its own rows and the error before it', async () => {
    const socket = client.connection.stream as net.Socket;
    const spies = [vi.spyOn(socket, '_write'), vi.spyOn(socket, '_writev')];
    const writes = () => spies.reduce((n, spy) => n + spy.mock.calls.length, 0);
    try {
      await client.query('begin');
      const later = client.query<{ n: number }>(`select $1::int as n${LATER}`, [4]);
      expect(writes()).toBe(0);
      expect((await client.query<{ n: number }>('select $1::int as n', [5])).rows).toEqual([{ n: 5 }]);
      expect(writes()).toBe(1);
      expect((await later).rows).toEqual([{ n: 4 }]);
      await client.query('commit');
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    await client.query('begin');
    await client.query(`select $1::int${AHEAD}`, ['not a number']);
    await expect(client.query(`select 1 as n${LATER}`)).rejects.toThrow(/invalid input syntax for type integer/);
    await client.query('rollback');
  });

  it('undoes one write alone: a statement sent ahead with parameters stays, a failed one after the next savepoint goes', async () => {
    await client.query('create temporary table t (n int)');
    await client.query('begin');
    await client.query(`savepoint write${AHEAD}`);
    // With parameters too (prepared like any other): done before the statement after it answers.
    await client.query(`insert into t values ($1)${AHEAD}`, [1]);
    await client.query(`release savepoint write; savepoint write${AHEAD}`);
    await expect(client.query('insert into t values ($1)', ['x'])).rejects.toThrow(/invalid input syntax/);
    await client.query('rollback to savepoint write');
    await client.query('commit');
    expect((await client.query('select n from t')).rows).toEqual([{ n: 1 }]);
  });
});
