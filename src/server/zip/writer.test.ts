import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ZipAborted, ZipWriter } from './writer.js';

describe('zip writer', () => {
  it('gives up finalizing when the reader goes away with the end of the zip still unread', async () => {
    const zip = new ZipWriter();
    // Far more than the streams' buffers hold: the end of the zip waits on a reader that never comes.
    await zip.add('noise.bin', randomBytes(1024 * 1024));
    const done = zip.finalize();
    zip.stream.destroy();
    await expect(done).rejects.toBeInstanceOf(ZipAborted);
  });
});
