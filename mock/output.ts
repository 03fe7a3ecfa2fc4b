/**
 * Standard output for the mock's request log and messages, written without blocking: lines are
 * gathered for at most 50 ms or 256 lines and go out in one write, so a busy mock makes one write
 * for many requests, and a terminal that reads slowly (a paused pager, a scrolled-back tmux pane)
 * never holds up an answer. A request-log line may be given as a function that words it: the
 * request then pays only for keeping it, and the wording happens with the other lines of its
 * batch. `close` resolves once every line is written. A node:cluster worker's output
 * (`relayedOutput`) gathers its lines the same way and sends each batch whole to the primary,
 * the one process that writes standard output, so no two workers' lines run into each other.
 */
import SonicBoom from 'sonic-boom';

/** A line of output without its line break, or a function that words it when it is written. */
export type Line = string | (() => string);

/** A line's text. */
function wordLine(line: Line): string {
	return typeof line === 'string' ? line : line();
}

/** A line with a prefix, worded when the line is. */
export function prefixed(prefix: string, line: Line): Line {
	return typeof line === 'string' ? `${prefix}${line}` : () => `${prefix}${line()}`;
}

/** A message as written: as it is, or as a JSON object beside a JSON request log (MOCK_LOG=json). */
export function worded(json: boolean, text: string, key: 'message' | 'error' = 'message'): string {
	return json ? JSON.stringify({ time: new Date().toISOString(), [key]: text }) : text;
}

/** A writer of standard output. */
export interface Output {
	/** Writes a line, gathered with others. */
	line: (line: Line) => void;
	/** Writes a message for the person at the terminal at once, after the lines before it. */
	say: (text: string) => void;
	/** Writes text as it is (another program's output, its line breaks its own) at once. */
	write: (text: string) => void;
	/** Writes what is left, then resolves. */
	close: () => Promise<void>;
}

/**
 * How long a line may wait for others before it is written, in milliseconds: a person at the
 * terminal does not see the delay, and a busy mock writes hundreds of lines at a time.
 */
export const FLUSH_MS = 50;

/** The most lines gathered before they are written, whatever their wait: about 25 KiB of log. */
export const BATCH_LINES = 256;

/**
 * The most bytes held for a reader that stopped reading (a pager left paused, a terminal frozen
 * with Ctrl-S): lines beyond it are dropped, counted, and the count is written once output flows
 * again, so a stalled terminal costs the mock at most this much memory.
 */
export const HELD_BYTES = 16 * 1024 * 1024;

/** The line that stands for lines dropped while standard output was not read. */
export function droppedNotice(count: number): string {
	const lines = count === 1 ? '1 line' : `${count} lines`;
	return `[${lines} of output dropped: standard output was not being read]`;
}

/**
 * Lines gathered for at most FLUSH_MS or BATCH_LINES lines, then worded together and handed to
 * `emit` as one text with their count: the batching both outputs share.
 */
function lineBatches(emit: (text: string, lines: number) => void): {
	add: (line: Line) => void;
	flush: () => void;
} {
	let pending: Line[] = [];
	let timer: NodeJS.Timeout | undefined;
	const flush = (): void => {
		clearTimeout(timer);
		timer = undefined;
		if (pending.length === 0) return;
		const lines = pending;
		pending = [];
		let text = '';
		for (const line of lines) text += `${wordLine(line)}\n`;
		emit(text, lines.length);
	};
	return {
		add: (line) => {
			pending.push(line);
			if (pending.length >= BATCH_LINES) flush();
			else timer ??= setTimeout(flush, FLUSH_MS);
		},
		flush,
	};
}

/**
 * Standard output, through SonicBoom (pino's writer), which writes asynchronously, retries a
 * terminal that is busy (EAGAIN) and, past `maxLength`, drops rather than holds. The batches are
 * gathered here, as one UTF-8 buffer each (SonicBoom's `contentMode: 'buffer'`): given strings,
 * SonicBoom measures the text it holds in bytes at every write.
 */
export function standardOutput(
	fd: number = process.stdout.fd,
	heldBytes: number = HELD_BYTES,
): Output {
	const out = new SonicBoom({
		fd,
		sync: false,
		contentMode: 'buffer',
		// A batch is one write; a stalled terminal's backlog goes out 64 KiB (a pipe's buffer) at a time.
		maxWrite: 64 * 1024,
		maxLength: heldBytes,
	});
	/** SonicBoom's `write` in buffer mode: its types know only the string mode's `write(string)`. */
	const writeBytes = out.write.bind(out) as unknown as (bytes: Buffer) => boolean;
	let refused = false;
	out.on('drop', () => {
		refused = true;
	});
	/** Lines dropped and not yet reported. */
	let dropped = 0;
	/**
	 * Hands text of some lines to SonicBoom, after the notice of lines dropped before, and counts
	 * them if it drops them.
	 */
	const put = (text: string, lines: number): void => {
		const notice = dropped > 0 ? `${droppedNotice(dropped)}\n` : '';
		refused = false;
		writeBytes(Buffer.from(`${notice}${text}`));
		// A dropped batch's notice is dropped with it; the next batch reports the sum.
		dropped = refused ? dropped + lines : 0;
	};
	const batches = lineBatches(put);

	return {
		line: batches.add,
		say: (text) => {
			batches.add(text);
			batches.flush();
		},
		write: (text) => {
			batches.flush();
			if (text !== '') put(text, Math.max(1, text.split('\n').length - 1));
		},
		close: () =>
			new Promise<void>((resolve) => {
				batches.flush();
				out.once('close', () => resolve());
				out.end();
			}),
	};
}

/** What a worker's output sends to the primary: some whole request-log lines, or a message. */
export type Relayed = { kind: 'lines'; text: string } | { kind: 'say'; text: string };

/**
 * A node:cluster worker's output (MOCK_WORKERS): lines gathered as `standardOutput` gathers
 * them, each batch sent whole to the primary, which writes it. `send` resolves once the message
 * is handed over; `close` resolves once every line is.
 */
export function relayedOutput(send: (message: Relayed) => Promise<void>): Output {
	let last: Promise<void> = Promise.resolve();
	const relay = (message: Relayed): void => {
		last = send(message);
	};
	const batches = lineBatches((text) => relay({ kind: 'lines', text }));
	return {
		line: batches.add,
		say: (text) => {
			batches.flush();
			relay({ kind: 'say', text });
		},
		write: (text) => {
			batches.flush();
			if (text !== '') relay({ kind: 'lines', text });
		},
		close: () => {
			batches.flush();
			return last;
		},
	};
}
