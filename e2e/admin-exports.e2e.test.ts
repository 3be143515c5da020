import { readFile } from 'node:fs/promises';
import type { Download, Page, Route } from 'playwright-core';
import { beforeAll, expect, test } from 'vitest';
import { accessibilityProblems, screenshot, settle, type ApiUser } from './support.js';
import { csvWords } from '../src/server/features/board-export/csv-words.js';
import { formatBytes } from '../src/web/features/exports/format.js';
import { rawZip, readZip } from '../test/zip.js';
import { describeE2E } from './use-e2e.js';

const CARDS = ['Kisten packen', 'Möbel abbauen', 'Schlüssel abgeben'];

const cardNames = (page: Page) => page.locator('[data-card-id] .card-name').allInnerTexts();
const contents = async (download: Download) => readFile(await download.path());
const accountRow = (page: Page, email: string) => page.locator('tbody tr').filter({ hasText: email });

/** The board zip with the first card's first history entry by someone who has no account here. */
async function withFormerAuthor(zip: Buffer, name: string): Promise<Buffer> {
  const { names, files } = await readZip(zip);
  const boardFile = names.find((n) => n.endsWith('.json'))!;
  const file = JSON.parse(files.get(boardFile)!.toString('utf8')) as {
    areas: Array<{ cards: Array<{ activity: Array<{ actor: { id: string; name: string } | null }> }> }>;
  };
  const entry = file.areas[0]!.cards[0]!.activity[0]!;
  entry.actor = { id: 'an-account-elsewhere', name };
  files.set(boardFile, Buffer.from(JSON.stringify(file)));
  return rawZip(names.filter((n) => !n.endsWith('/')).map((n) => ({ name: n, data: files.get(n)! })));
}

/** Holds a request until released, so an export can be seen (and cancelled) while it runs. */
function gate(page: Page, pattern: string) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let seen!: () => void;
  const arrived = new Promise<void>((resolve) => (seen = resolve));
  const handler = async (route: Route) => {
    seen();
    await released;
    // A cancelled request cannot be continued any more; that is the point.
    await route.continue().catch(() => undefined);
  };
  return {
    arrived,
    install: () => page.route(pattern, handler),
    async remove() {
      release();
      await page.unroute(pattern, handler);
    },
  };
}

describeE2E('exports, import and the administration page', { env: { LANGUAGE: 'de' } }, (e2e) => {
  let admin: ApiUser;
  let boardId: number;
  let boardZip: Buffer;

  beforeAll(async () => {
    // The first account of the instance administers it.
    admin = await e2e.seed.user('Ada Admin');
    const { board } = await e2e.seed.boardWith(admin, 'Umzug', { 'Zu erledigen': CARDS });
    boardId = board.id;
  });

  const adminPage = (width = 1400) => e2e.newPage({ as: admin, width });

  const exportFromMenu = async (page: Page, item: 'Export as CSV' | 'Export as zip') => {
    await page.getByRole('button', { name: 'Board menu' }).click();
    await page.getByRole('menuitem', { name: item }).click();
  };

  test('the board menu exports a German CSV and a zip, with progress that can be cancelled', async () => {
    const { page, context } = await adminPage();
    await page.goto(`/board/${boardId}`);
    await expect.poll(() => cardNames(page)).toEqual(CARDS);

    // An export held on its way shows its progress in the corner, and Cancel stops it without a file.
    const held = gate(page, '**/api/data/board-export?*');
    await held.install();
    let downloaded = false;
    page.on('download', () => (downloaded = true));
    await exportFromMenu(page, 'Export as zip');
    await held.arrived;
    const panel = page.getByRole('region', { name: 'Downloads' });
    await panel.getByRole('progressbar', { name: 'Downloading Umzug (zip)' }).waitFor();
    await panel.getByText('Downloading…').waitFor();
    await settle(page);
    await screenshot(page, 'export-progress-panel-1400');
    expect(await accessibilityProblems(page, 'board export in progress')).toEqual([]);
    await panel.getByRole('button', { name: 'Cancel the download of Umzug (zip)' }).click();
    await panel.getByText('Cancelled').waitFor();
    expect(await panel.getByRole('progressbar').count()).toBe(0);
    await held.remove();
    await panel.getByRole('button', { name: 'Dismiss' }).click();
    await panel.waitFor({ state: 'detached' });
    expect(downloaded).toBe(false);

    // CSV: the file name, the byte-order mark, the German headings with `;`, a row per card.
    const csvDownload = page.waitForEvent('download');
    await exportFromMenu(page, 'Export as CSV');
    const csv = await csvDownload;
    expect(csv.suggestedFilename()).toMatch(new RegExp(`^${boardId}-.*\\.csv$`));
    const csvBytes = await contents(csv);
    expect([...csvBytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = csvBytes.subarray(3).toString('utf8').split('\r\n');
    expect(lines[0]).toBe(csvWords.de.headings.join(';'));
    expect(lines.filter((line) => CARDS.some((name) => line.includes(name)))).toHaveLength(CARDS.length);
    await panel.getByText('Saved').waitFor();

    // Zip: a real zip, kept for the import below.
    const zipDownload = page.waitForEvent('download');
    await exportFromMenu(page, 'Export as zip');
    const zip = await zipDownload;
    expect(zip.suggestedFilename()).toMatch(new RegExp(`^${boardId}-.*\\.zip$`));
    boardZip = await contents(zip);
    expect(boardZip.subarray(0, 2).toString('latin1')).toBe('PK');
    await context.close();
  }, 120_000);

  test('an administrator lists, creates, promotes and deletes accounts', async () => {
    const { page, context } = await adminPage();
    await page.goto('/');
    await page.getByRole('button', { name: 'Account' }).click();
    await page.getByRole('menuitem', { name: 'Administration' }).click();
    await page.waitForURL('**/admin');
    await page.getByRole('heading', { name: 'Administration' }).waitFor();

    // Their own row: shown as "You", and its role and deletion are out of reach.
    const own = accountRow(page, admin.email);
    await own.getByText('You', { exact: true }).waitFor();
    await expect.poll(() => own.getByText('Administrator', { exact: true }).count()).toBe(1);
    expect(await own.getByRole('button', { name: 'Remove administrator' }).isDisabled()).toBe(true);
    expect(await own.getByRole('button', { name: 'Delete the account of Ada Admin' }).isDisabled()).toBe(true);
    await own.getByText('You cannot change your own role or delete your own account.').waitFor();

    // Create an account through the dialog.
    const email = `bert-${Date.now()}@example.test`;
    await page.getByRole('button', { name: 'New account' }).click();
    const dialog = page.getByRole('dialog', { name: 'New account' });
    await dialog.getByLabel('Name').fill('Bert Benutzer');
    await dialog.getByLabel('E-mail address').fill(email);
    await dialog.getByLabel('Password').fill('another horse battery');
    await dialog.getByRole('button', { name: 'Create account' }).click();
    await dialog.waitFor({ state: 'detached' });
    const bert = accountRow(page, email);
    await bert.getByText('Bert Benutzer').waitFor();
    await bert.getByText('User', { exact: true }).waitFor();
    const createdOn = new Intl.DateTimeFormat('en', { dateStyle: 'medium' }).format(new Date());
    await bert.getByText(createdOn).waitFor();

    // The same address twice is refused in words.
    await page.getByRole('button', { name: 'New account' }).click();
    await dialog.getByLabel('Name').fill('Bert again');
    await dialog.getByLabel('E-mail address').fill(email);
    await dialog.getByLabel('Password').fill('another horse battery');
    await dialog.getByRole('button', { name: 'Create account' }).click();
    await dialog.getByRole('alert').getByText('An account with this e-mail address exists already.').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // Search narrows the list.
    await page.getByLabel('Search accounts').fill('Bert');
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    await page.getByLabel('Search accounts').fill('');
    await expect.poll(() => page.locator('tbody tr').count()).toBe(2);

    // Make Bert an administrator; the role shows, and the server agrees.
    await bert.getByRole('button', { name: 'Make administrator' }).click();
    await bert.getByText('Administrator', { exact: true }).waitFor();
    await bert.getByRole('button', { name: 'Remove administrator' }).waitFor();
    const listed = async () =>
      (await admin.call<{ users: { email: string; role: string }[] }>('GET', '/api/auth/admin/list-users?limit=100')).users;
    expect((await listed()).find((u) => u.email === email)?.role).toBe('admin');

    await settle(page);
    await screenshot(page, 'admin-1400');
    expect(await accessibilityProblems(page, 'admin page')).toEqual([]);

    // Delete Bert: the confirmation says the boards go too; then the row and the account are gone.
    await bert.getByRole('button', { name: 'Delete the account of Bert Benutzer' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete the account of Bert Benutzer?' });
    await confirm.getByText(/the boards it owns go with it/).waitFor();
    expect(await accessibilityProblems(page, 'delete confirmation')).toEqual([]);
    await confirm.getByRole('button', { name: 'Delete account' }).click();
    await bert.waitFor({ state: 'detached' });
    expect((await listed()).some((u) => u.email === email)).toBe(false);
    await context.close();
  }, 120_000);

  test('the instance export shows bytes and time as it runs, can be cancelled, and downloads a zip', async () => {
    const { page, context } = await adminPage();
    await page.goto('/admin');
    const section = page.getByRole('region', { name: 'Export the instance' });

    const held = gate(page, '**/api/data/export');
    await held.install();
    await section.getByRole('button', { name: 'Export everything' }).click();
    await held.arrived;
    const bar = section.getByRole('progressbar', { name: 'Downloading Instance export' });
    await bar.waitFor();
    expect(await bar.getAttribute('aria-valuetext')).toBe('0 byte received');
    expect(await section.getByRole('button', { name: 'Export everything' }).isDisabled()).toBe(true);
    // The elapsed time counts up while it waits.
    await section.getByText('1 sec elapsed').waitFor({ timeout: 3000 });
    await settle(page);
    await screenshot(page, 'export-progress-1400');
    expect(await accessibilityProblems(page, 'instance export in progress')).toEqual([]);
    await section.getByRole('button', { name: 'Cancel the download of Instance export' }).click();
    await section.getByText('Cancelled').waitFor();
    await held.remove();

    const download = page.waitForEvent('download');
    await section.getByRole('button', { name: 'Export everything' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^tavla-export-\d{4}-\d{2}-\d{2}\.zip$/);
    const bytes = await contents(file);
    expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
    await section.getByText('Saved').waitFor();
    // The size shown at the end is the size of the file saved.
    await section.getByText(`${formatBytes(bytes.length, 'en')} received`, { exact: true }).waitFor();
    await context.close();
  }, 120_000);

  test('importing the board zip makes a new board with the same cards', async () => {
    expect(boardZip, 'the board export test ran first').toBeDefined();
    const { page, context } = await adminPage();
    await page.goto('/admin');
    const section = page.getByRole('region', { name: 'Import a board' });
    await section.getByLabel('Board export file').setInputFiles({
      name: 'umzug.zip',
      mimeType: 'application/zip',
      buffer: await withFormerAuthor(boardZip, 'Greta Gone'),
    });
    await section.getByRole('button', { name: 'Import' }).click();
    await section.getByText('“Umzug” was imported.').waitFor();
    await settle(page);
    await screenshot(page, 'import-done-1400');

    await section.getByRole('link', { name: 'Open the board' }).click();
    await page.waitForURL(/\/board\/\d+$/);
    const importedId = Number(new URL(page.url()).pathname.split('/').pop());
    expect(importedId).not.toBe(boardId);
    await expect.poll(() => cardNames(page)).toEqual(CARDS);

    // History by someone who has no account here keeps their name, as text.
    await page.locator('[data-card-id] .card-name').first().click();
    const history = page.getByRole('dialog').locator('.activity-item');
    await history.filter({ hasText: 'Greta Gone' }).waitFor();
    expect(await accessibilityProblems(page, 'imported card history')).toEqual([]);
    await page.keyboard.press('Escape');

    // Something that is not a board export is refused in words.
    await page.goto('/admin');
    await section.getByLabel('Board export file').setInputFiles({
      name: 'notes.zip',
      mimeType: 'application/zip',
      buffer: Buffer.from('not a zip at all'),
    });
    await section.getByRole('button', { name: 'Import' }).click();
    await section
      .getByRole('alert')
      .getByText(/^The import failed\./)
      .waitFor();
    await context.close();
  }, 120_000);

  test('importing a Trello export (.json) makes a new board and shows what came over and what was left out', async () => {
    const trello = {
      name: 'Trello-Umzug',
      prefs: { background: 'blue', backgroundColor: '#0079BF' },
      labels: [{ id: 'l1', name: '', color: 'purple' }],
      lists: [
        { id: 'L2', name: 'Erledigt', closed: false, pos: 2 },
        { id: 'L1', name: 'Offen', closed: false, pos: 1 },
        { id: 'L0', name: 'Alt', closed: true, pos: 3 },
      ],
      cards: [
        { id: 'c2', idList: 'L1', name: 'Kartons kaufen', pos: 2, idLabels: [] },
        {
          id: 'c1',
          idList: 'L1',
          name: 'Umzugswagen mieten',
          desc: 'Bis **Freitag**',
          pos: 1,
          idLabels: ['l1'],
          attachments: [
            { name: 'Angebot.pdf', url: 'https://trello.com/1/cards/c1/attachments/a/download/Angebot.pdf' },
            { name: 'Notiz', url: 'file:///C:/notiz.txt' },
          ],
        },
      ],
      checklists: [
        {
          id: 'k1',
          idCard: 'c1',
          name: 'Vorher',
          pos: 1,
          checkItems: [
            { name: 'Führerschein', state: 'complete', pos: 1 },
            { name: 'Kaution', state: 'incomplete', pos: 2 },
          ],
        },
      ],
      actions: [
        {
          type: 'commentCard',
          date: '2026-01-02T10:00:00.000Z',
          data: { text: 'Erledige ich', card: { id: 'c1' } },
          memberCreator: { fullName: 'Zoë Außen', username: 'zoe' },
        },
        { type: 'createCard', date: '2026-01-01T10:00:00.000Z', data: { card: { id: 'c1' } } },
      ],
      members: [],
    };
    const { page, context } = await adminPage();
    await page.goto('/admin');
    const section = page.getByRole('region', { name: 'Import a board' });
    await section.getByLabel('Board export file').setInputFiles({
      name: 'trello.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(trello)),
    });
    await section.getByRole('button', { name: 'Import' }).click();
    await section.getByText('“Trello-Umzug” was imported.').waitFor();
    await section.getByRole('heading', { name: 'Imported from Trello' }).waitFor();
    const counts = await section.locator('.import-counts > div').allInnerTexts();
    expect(counts.map((text) => text.replace(/\s+/g, ' ').trim())).toEqual([
      'Areas 3',
      'Cards 2',
      'Comments 1',
      'Labels 1',
      'Checklist items 2',
      'Attachment links 1',
    ]);
    await section.getByRole('heading', { name: 'Left out' }).waitFor();
    expect(await section.locator('.import-skipped li').allInnerTexts()).toEqual([
      'Trello history (entries: 1): only comments are imported.',
      'Attachment “Notiz”: it has no web address to link to.',
    ]);
    await settle(page);
    await screenshot(page, 'import-trello-report-1400');
    expect(await accessibilityProblems(page, 'Trello import report')).toEqual([]);

    await section.getByRole('link', { name: 'Open the board' }).click();
    await page.waitForURL(/\/board\/\d+$/);
    await expect.poll(() => cardNames(page)).toEqual(['Umzugswagen mieten', 'Kartons kaufen']);
    await context.close();
  }, 120_000);

  test('importing a LokalBoards export (.zip) brings its files and reports who was not on this instance, at 390 px', async () => {
    const pdf = Buffer.from('%PDF-1.4\n%%EOF\n');
    const file = {
      format: 'lokalboards.board',
      formatVersion: 1,
      lokalboardsVersion: '0.39.0',
      exportedAt: '2026-02-01T00:00:00.000Z',
      board: { id: 3, name: 'Lokal-Umzug', style: 'kanban', status: 'private', color: null, image: null, owner: null },
      members: [],
      labels: [{ id: 1, name: 'Küche' }],
      areas: [
        {
          id: 1,
          name: 'Offen',
          sort: 0,
          archivedAt: null,
          cards: [
            {
              id: 5,
              name: 'Geschirr packen',
              content: '- [x] Teller\n- [ ] Gläser',
              done: false,
              sort: 0,
              dueDate: null,
              repeat: null,
              assignees: [{ id: 'x1', name: 'Rudi Fremd' }],
              assignee: { id: 'x1', name: 'Rudi Fremd' },
              labels: ['Küche'],
              archivedAt: null,
              reminders: [],
              attachments: [
                {
                  id: 9,
                  filename: 'Liste.pdf',
                  filetype: 'application/pdf',
                  filesize: pdf.length,
                  createdAt: '2026-01-01T00:00:00.000Z',
                  file: 'attachments/9-Liste.pdf',
                },
              ],
              comments: [
                { id: 1, author: { id: 'x1', name: 'Rudi Fremd' }, content: 'Mach ich', createdAt: '2026-01-02T00:00:00.000Z' },
              ],
              activity: [],
            },
          ],
        },
      ],
      images: {},
    };
    const zip = rawZip([
      { name: '3-lokal-umzug.json', data: JSON.stringify(file) },
      { name: 'attachments/9-Liste.pdf', data: pdf },
    ]);
    const { page, context } = await adminPage(390);
    await page.goto('/admin');
    const section = page.getByRole('region', { name: 'Import a board' });
    await section.getByLabel('Board export file').setInputFiles({ name: 'lokal.zip', mimeType: 'application/zip', buffer: zip });
    await section.getByRole('button', { name: 'Import' }).click();
    await section.getByText('“Lokal-Umzug” was imported.').waitFor();
    await section.getByRole('heading', { name: 'Imported from LokalBoards' }).waitFor();
    const counts = await section.locator('.import-counts > div').allInnerTexts();
    expect(counts.map((text) => text.replace(/\s+/g, ' ').trim())).toEqual([
      'Areas 1',
      'Cards 1',
      'Comments 1',
      'Labels 1',
      'Checklist items 2',
      'Attachment links 0',
      'Attachments 1',
    ]);
    expect(await section.locator('.import-skipped li').allInnerTexts()).toEqual([
      'Rudi Fremd as an assignee: nobody of that name shares a board with you here.',
    ]);
    await settle(page);
    await screenshot(page, 'import-lokalboards-report-390');
    expect(await accessibilityProblems(page, 'LokalBoards import report')).toEqual([]);
    await context.close();
  }, 120_000);

  test('the administration at 390 px', async () => {
    const { page, context } = await adminPage(390);
    await page.goto('/admin');
    await accountRow(page, admin.email).waitFor();
    await settle(page);
    await screenshot(page, 'admin-390');
    expect(await accessibilityProblems(page, 'admin page at 390')).toEqual([]);
    // Nothing is wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await context.close();
  }, 60_000);

  test('someone who is not an administrator sees no link and is refused', async () => {
    const nora = await e2e.seed.user('Nora Normal');
    const { page, context } = await e2e.newPage({ as: nora });
    await page.goto('/');
    await page.getByRole('button', { name: 'Account' }).click();
    await page.getByRole('menuitem', { name: 'Settings' }).waitFor();
    expect(await page.getByRole('menuitem', { name: 'Administration' }).count()).toBe(0);
    await page.keyboard.press('Escape');

    await page.goto('/admin');
    await page.getByRole('heading', { name: 'Not allowed' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Accounts' }).count()).toBe(0);
    expect(await accessibilityProblems(page, 'admin page, not allowed')).toEqual([]);
    await context.close();
  }, 60_000);
});
