import { moveFilesToS3 } from '../../files/move-to-s3.js';
import { Failure, UsageError, type Command } from '../command.js';
import { configuration } from '../service.js';

export const filesMoveToS3: Command = {
  name: 'files move-to-s3',
  summary: 'copy the files under DATA_DIR/uploads into the S3 bucket (S3_BUCKET and the other S3_* settings)',
  usage: '[--remove] [--verify content|size] [--concurrency N]',
  help: `Copies every stored file (attachments, pasted pictures, profile pictures) from
DATA_DIR/uploads into the bucket the S3_* settings name, under the same name, so
no row changes. Each copy is verified before it counts: --verify content (the
default) reads it back and compares its SHA-256; --verify size trusts the
bucket's size and recorded hash. Safe to run again: a file the bucket already
holds with the same bytes is skipped. Run it with the service stopped, or run
it, start the service with S3_BUCKET, and run it once more for files uploaded
meanwhile.
  --remove           delete each file from disk once its copy is verified
  --verify MODE      content (default) or size
  --concurrency N    files copied at once (default 4)`,
  options: { remove: { type: 'boolean' }, verify: { type: 'string' }, concurrency: { type: 'string' } },
  async run(args, io) {
    const config = configuration();
    if (!config.s3) throw new UsageError('S3_BUCKET is not set: there is no bucket to move the files to');
    const verify = (args.values.verify as string | undefined) ?? 'content';
    if (verify !== 'content' && verify !== 'size') throw new UsageError('--verify takes content or size');
    const concurrency = Number((args.values.concurrency as string | undefined) ?? 4);
    if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64)
      throw new UsageError('--concurrency takes a whole number from 1 to 64');
    const summary = await moveFilesToS3({
      dataDir: config.dataDir,
      s3: config.s3,
      removeFromDisk: args.values.remove === true,
      verify,
      concurrency,
      onProgress: (p) => {
        if (p.outcome === 'failed') io.err(`  ${p.storedName}: ${p.error ?? 'failed'}`);
        else if (p.done === p.total || p.done % 100 === 0) io.out(`  ${p.done}/${p.total} files, ${p.bytes} bytes sent`);
      },
    });
    io.out(
      `${summary.total} files: ${summary.copied} copied, ${summary.skipped} already there, ${summary.failed.length} failed` +
        (args.values.remove === true ? `, ${summary.removed} removed from disk` : ''),
    );
    if (summary.failed.length > 0) throw new Failure(`${summary.failed.length} files were not moved: run it again`);
    return 0;
  },
};
