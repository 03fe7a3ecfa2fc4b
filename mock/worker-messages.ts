/**
 * The messages between the mock's primary and its node:cluster workers (MOCK_WORKERS), each
 * checked on arrival. A worker sends its request-log lines (whole, many at once), its messages,
 * its address once it listens, that it stopped listening, and what it answered once stopped;
 * the primary tells it to stop listening, then to drain.
 */
import { z } from 'zod';

const count = z.number().int().min(0);

/** What a worker tells the primary. */
export const fromWorkerSchema = z.discriminatedUnion('kind', [
	z.object({ kind: z.literal('lines'), text: z.string() }),
	z.object({ kind: z.literal('say'), text: z.string() }),
	z.object({ kind: z.literal('error'), text: z.string() }),
	z.object({ kind: z.literal('listening'), url: z.string() }),
	z.object({ kind: z.literal('unlistened') }),
	z.object({ kind: z.literal('stopped'), received: count, answered: count }),
]);

/** What a worker tells the primary. */
export type FromWorker = z.infer<typeof fromWorkerSchema>;

/**
 * What the primary tells a worker, in two steps: stop accepting connections, and once every
 * worker has, drain (keeping idle connections open `lingerMs`, see stopping.ts).
 */
export const toWorkerSchema = z.discriminatedUnion('kind', [
	z.object({ kind: z.literal('stop') }),
	z.object({ kind: z.literal('drain'), lingerMs: count }),
]);

/** What the primary tells a worker. */
export type ToWorker = z.infer<typeof toWorkerSchema>;
