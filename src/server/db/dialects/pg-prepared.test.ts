import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AHEAD, PreparingClient } from './pg-prepared.js';

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
    const ahead = client.query(`${AHEAD}select pg_sleep(0.3)`).then(() => 'ahead');
    const timer = new Promise((resolve) => setTimeout(() => resolve('timer'), 100));
    expect(await Promise.race([ahead, timer])).toBe('ahead');
    const next = client.query<{ n: number }>('select $1::int as n', [7]);
    expect(await Promise.race([next.then(() => 'next'), timer])).toBe('timer');
    expect((await next).rows).toEqual([{ n: 7 }]);
    await client.query('commit');
  });

  it('fails the statement after one sent ahead that failed, with the error that explains it', async () => {
    await client.query('begin');
    await client.query(`${AHEAD}release savepoint nowhere`);
    await expect(client.query('select $1::int as n', [1])).rejects.toThrow(/savepoint "nowhere" does not exist/);
    await client.query('rollback');
    // The connection is fine afterwards, and the error was taken by that statement alone.
    expect((await client.query<{ n: number }>('select $1::int as n', [2])).rows).toEqual([{ n: 2 }]);
  });

  it('runs a transaction as before when every statement is awaited', async () => {
    await client.query('create temporary table t (n int)');
    await client.query('begin');
    await client.query(`${AHEAD}savepoint write`);
    await client.query('insert into t values ($1)', [1]);
    await client.query(`${AHEAD}release savepoint write; savepoint write`);
    await expect(client.query('insert into t values ($1)', ['x'])).rejects.toThrow(/invalid input syntax/);
    await client.query('rollback to savepoint write');
    await client.query('commit');
    expect((await client.query('select n from t')).rows).toEqual([{ n: 1 }]);
  });
});
