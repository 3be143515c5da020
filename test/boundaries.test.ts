import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

/*
 * The boundaries in eslint.config.js, run on snippets placed at the paths
 * they govern: each rule must fire where it should and stay quiet elsewhere.
 */

const root = path.resolve(import.meta.dirname, '..');
const { boundaries } = (await import(pathToFileURL(path.join(root, 'eslint.config.js')).href)) as {
  boundaries: () => Linter.Config[];
};
const linter = new Linter({ configType: 'flat', cwd: root });
const config: Linter.Config[] = [
  { files: ['**/*.ts', '**/*.tsx'], languageOptions: { parser: tseslint.parser } },
  ...boundaries(),
];

/** The messages the boundaries give `code` placed at `file`. */
function lint(file: string, code: string): string[] {
  return linter.verify(code, config, { filename: path.join(root, file) }).map((m) => `${m.ruleId ?? 'fatal'}: ${m.message}`);
}

const query = `export const f = (db: Db) => db.selectFrom('cards').selectAll().execute();`;

describe('boundaries', () => {
  it('lets only repositories, db/ and access/ build queries (tests exempt)', () => {
    expect(lint('src/server/features/cards/cards.service.ts', query)).toEqual([
      expect.stringMatching(/^no-restricted-syntax: Only \*\.repository\.ts/),
    ]);
    for (const builder of ['insertInto', 'updateTable', 'deleteFrom', 'replaceInto', 'selectNoFrom', 'with']) {
      expect(lint('src/server/files/store.ts', `trx.${builder}('x');`), builder).toHaveLength(1);
    }
    expect(lint('src/server/realtime/hub.ts', `import { sql } from 'kysely';`)).toHaveLength(1);
    expect(lint('src/server/features/cards/ordering.ts', `import * as k from 'kysely';`)).toHaveLength(1);
    expect(lint('src/server/features/cards/ordering.ts', `import type { Selectable } from 'kysely';`)).toEqual([]);
    for (const home of [
      'src/server/features/cards/cards.repository.ts',
      'src/server/db/hot-query.ts',
      'src/server/access/policy.ts',
      'src/server/features/cards/cards.test.ts',
      'test/factories.ts',
      'bench/run.ts',
    ]) {
      expect(lint(home, `import { sql } from 'kysely';\n${query}`), home).toEqual([]);
    }
  });

  it('keeps repositories out of route files', () => {
    expect(lint('src/server/features/sharing/invitations.routes.ts', `import { x } from './sharing.repository.js';`)).toEqual([
      expect.stringMatching(/^no-restricted-imports: .*Routes never import repositories/),
    ]);
    expect(lint('src/server/features/sharing/invitations.routes.ts', `import { x } from './invitations.js';`)).toEqual([]);
  });

  it('keeps core from importing features, and a core route file from both', () => {
    expect(lint('src/server/events/board-write.ts', `import { x } from '../features/cards/guards.js';`)).toEqual([
      expect.stringMatching(/^no-restricted-imports: .*Core \(events, realtime, db, http, jobs\) never imports features/),
    ]);
    for (const file of [
      'src/server/realtime/hub.ts',
      'src/server/db/database.ts',
      'src/server/http/web.ts',
      'src/server/jobs/runner.ts',
    ]) {
      expect(lint(file, `import { x } from '../features/boards/boards.service.js';`), file).toHaveLength(1);
    }
    expect(
      lint(
        'src/server/realtime/socket.routes.ts',
        `import { a } from '../features/x/y.js';\nimport { b } from './event-log.repository.js';`,
      ),
    ).toHaveLength(2);
    expect(lint('src/server/features/cards/cards.service.ts', `import { x } from '../boards/boards.service.js';`)).toEqual([]);
  });

  it('keeps the web app from importing server code', () => {
    expect(lint('src/web/features/board/BoardPage.tsx', `import { x } from '../../../server/app.js';`)).toEqual([
      expect.stringMatching(/^no-restricted-imports: .*The web app never imports server code/),
    ]);
    expect(lint('src/web/features/board/BoardPage.tsx', `import { x } from '../../../shared/events.js';`)).toEqual([]);
  });
});
