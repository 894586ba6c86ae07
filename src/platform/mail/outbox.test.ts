/**
 * `maitred outbox`: the embedded default (no SMTP_URL) keeps mail, and the CLI lists it newest first,
 * `--limit` bounding it; `--json` prints exactly one line of `{ data: [{ to, subject, created_at, sent_at }] }`.
 * One run of the real binary; the rest through the same command code in this process.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../cli.js';
import { createTestApp, TEST_NOW, type TestApp } from '../../../test/helpers/app.js';

const run = promisify(execFile);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());
beforeEach(async () => {
  await t.db.kysely.deleteFrom('mail_outbox').execute();
  t.clock.set(TEST_NOW);
});

/** Three kept messages a minute apart: First (oldest), Second, Third (newest). */
async function queueThree() {
  for (const [i, subject] of ['First', 'Second', 'Third'].entries()) {
    if (i) t.clock.advance(60_000);
    await t.ctx.mail.queue(t.db, { to: `guest${i + 1}@example.com`, subject, text: `Body of ${subject.toLowerCase()}.\nSee you soon.` });
  }
}

const at = (minutes: number) => new Date(new Date(TEST_NOW).getTime() + minutes * 60_000).toISOString();

/**
 * Runs the CLI command in this process against the test database; returns what it printed on stdout,
 * or throws with what it printed on stderr when it failed (2: bad usage).
 */
async function cliInProcess(args: string[]): Promise<string> {
  const res = await runCli(args, { env: { ...process.env, DATABASE_URL: t.db.url, LOG_LEVEL: 'silent' } });
  if (res.code !== 0) throw new Error(`exit ${res.code}: ${res.stderr}`);
  return res.stdout;
}

describe('maitred outbox', () => {
  it('bin/maitred outbox --json --limit 2 prints one JSON line with the two newest messages', async () => {
    await queueThree();
    expect(t.ctx.mail.delivering).toBe(false);
    const { stdout } = await run(path.resolve('bin/maitred'), ['outbox', '--json', '--limit', '2'], {
      env: { ...process.env, DATABASE_URL: t.db.url, LOG_LEVEL: 'silent' },
      timeout: 30_000,
    });
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toEqual({
      data: [
        { to: 'guest3@example.com', subject: 'Third', created_at: at(2), sent_at: null },
        { to: 'guest2@example.com', subject: 'Second', created_at: at(1), sent_at: null },
      ],
    });
  });

  it('lists every message newest first by default, with sent_at for sent mail', async () => {
    await queueThree();
    const sentAt = at(3);
    await t.db.kysely
      .updateTable('mail_outbox')
      .set({ status: 'sent', attempts: 1, sent_at: sentAt })
      .where('subject', '=', 'First')
      .execute();
    const out = await cliInProcess(['outbox', '--json']);
    expect(out.endsWith('\n')).toBe(true);
    expect(out.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(out).data).toEqual([
      { to: 'guest3@example.com', subject: 'Third', created_at: at(2), sent_at: null },
      { to: 'guest2@example.com', subject: 'Second', created_at: at(1), sent_at: null },
      { to: 'guest1@example.com', subject: 'First', created_at: at(0), sent_at: sentAt },
    ]);
    expect((await t.ctx.mail.list({ limit: 1 })).map((e) => e.subject)).toEqual(['Third']);
  });

  it('shows each message as it would have been read, without --json', async () => {
    await queueThree();
    const out = await cliInProcess(['outbox', '--limit', '2']);
    expect(out).toContain(
      `── ${at(2)}  to guest3@example.com  [kept (no SMTP_URL: not sent)]\nSubject: Third\n\nBody of third.\nSee you soon.\n`,
    );
    expect(out.indexOf('Subject: Third')).toBeLessThan(out.indexOf('Subject: Second'));
    expect(out).not.toContain('Subject: First');
  });

  it('says so when the outbox is empty', async () => {
    expect(await cliInProcess(['outbox'])).toBe('The outbox is empty.\n');
    expect(JSON.parse(await cliInProcess(['outbox', '--json']))).toEqual({ data: [] });
  });

  it.each(['0', '-1', 'two', '1.5', '1001'])('refuses --limit %s before printing anything', async (limit) => {
    await queueThree();
    let out = '';
    await expect(
      (async () => {
        out = await cliInProcess(['outbox', '--json', '--limit', limit]);
      })(),
    ).rejects.toThrow(/exit 2: maitred: --limit must be a whole number from 1 to 1000/);
    expect(out).toBe('');
  });
});
