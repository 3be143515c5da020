import { useSyncExternalStore } from 'react';
import { ApiError } from '../../api/client';
import { errorMessage } from '../../api/errors';

/** One file being fetched from the API and saved, with what has arrived so far. */
export interface Download {
  id: number;
  /** What is being fetched, already translated (e.g. the board's name). */
  label: string;
  /** The name it is saved under, once the server has told it. */
  filename: string | null;
  received: number;
  /** From Content-Length; null while unknown (a streamed export has none). */
  total: number | null;
  startedAt: number;
  finishedAt: number | null;
  status: 'running' | 'done' | 'failed' | 'cancelled';
  /** Why it failed, in words. */
  error: string | null;
  /** Shown in the floating panel (board exports); the admin page shows its own. */
  floating: boolean;
}

let downloads: Download[] = [];
const controllers = new Map<number, AbortController>();
const listeners = new Set<() => void>();
let nextId = 1;

const emit = () => listeners.forEach((listener) => listener());

function update(id: number, change: Partial<Download>): void {
  downloads = downloads.map((d) => (d.id === id ? { ...d, ...change } : d));
  emit();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useDownloads(): Download[] {
  return useSyncExternalStore(subscribe, () => downloads);
}

export function useDownload(id: number | null): Download | null {
  return useSyncExternalStore(subscribe, () => (id === null ? null : (downloads.find((d) => d.id === id) ?? null)));
}

export function cancelDownload(id: number): void {
  controllers.get(id)?.abort();
}

export function forgetDownload(id: number): void {
  controllers.get(id)?.abort();
  downloads = downloads.filter((d) => d.id !== id);
  emit();
}

/** The file name of a Content-Disposition header: `filename*` (UTF-8) first, else `filename`. */
export function dispositionFilename(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // Falls through to the plain name.
    }
  }
  const plain = /filename\s*=\s*"([^"]*)"|filename\s*=\s*([^;]+)/.exec(header);
  const name = (plain?.[1] ?? plain?.[2])?.trim();
  return name || null;
}

/** Hands a finished file to the browser's downloads. */
function save(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the file by then; the memory can go.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

async function errorText(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as unknown;
    if (body && typeof body === 'object' && 'error' in body && typeof body.error === 'string') return body.error;
  } catch {
    // Not JSON: the status says enough.
  }
  return response.statusText || String(response.status);
}

/**
 * Fetches `url` reading the body as it streams in (so progress can show),
 * then saves it under the name the server gave. Returns the download's id at
 * once; its state is in the store. Progress is published at most every 100 ms.
 */
export function startDownload(url: string, label: string, fallbackName: string, floating: boolean): number {
  const id = nextId++;
  const controller = new AbortController();
  controllers.set(id, controller);
  downloads = [
    ...downloads,
    {
      id,
      label,
      filename: null,
      received: 0,
      total: null,
      startedAt: Date.now(),
      finishedAt: null,
      status: 'running',
      error: null,
      floating,
    },
  ];
  emit();
  void run(id, url, fallbackName, controller.signal).finally(() => controllers.delete(id));
  return id;
}

async function run(id: number, url: string, fallbackName: string, signal: AbortSignal): Promise<void> {
  try {
    const response = await fetch(url, { credentials: 'same-origin', signal });
    if (!response.ok) throw new ApiError(response.status, await errorText(response));
    const filename = dispositionFilename(response.headers.get('content-disposition')) ?? fallbackName;
    const length = Number(response.headers.get('content-length'));
    const total = Number.isFinite(length) && length > 0 ? length : null;
    update(id, { filename, total });

    const chunks: BlobPart[] = [];
    let received = 0;
    let published = 0;
    if (response.body) {
      const reader = response.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        received += value.byteLength;
        if (Date.now() - published > 100) {
          published = Date.now();
          update(id, { received });
        }
      }
    } else {
      const buffer = await response.arrayBuffer();
      chunks.push(buffer);
      received = buffer.byteLength;
    }
    const type = response.headers.get('content-type') ?? 'application/octet-stream';
    save(new Blob(chunks, { type }), filename);
    update(id, { received, status: 'done', finishedAt: Date.now() });
  } catch (error) {
    if (signal.aborted) {
      update(id, { status: 'cancelled', finishedAt: Date.now() });
      return;
    }
    // fetch refuses with a TypeError when the server cannot be reached, or the stream breaks off.
    const refusal = error instanceof ApiError ? error : new ApiError(0, 'NETWORK');
    update(id, { status: 'failed', error: errorMessage(refusal), finishedAt: Date.now() });
  }
}
