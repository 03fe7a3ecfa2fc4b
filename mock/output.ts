/**
 * Standard output for the mock's request log and messages, written without blocking: lines are
 * gathered for at most 50 ms or 16 KiB and go out together, so a busy mock makes one write for
 * many requests, and a terminal that reads slowly (a paused pager, a scrolled-back tmux pane)
 * never holds up an answer. `close` resolves once every line is written.
 */
import SonicBoom from 'sonic-boom';

/** A writer of standard output. */
export interface Output {
	/** Writes a request-log line, gathered with others; the line break is added. */
	line: (text: string) => void;
	/** Writes a message for the person at the terminal at once, after the lines before it. */
	say: (text: string) => void;
	/** Writes text as it is, at once. */
	write: (text: string) => void;
	/** Writes what is left, then resolves. */
	close: () => Promise<void>;
}

/**
 * How long a line may wait for others before it is written, in milliseconds: a person at the
 * terminal does not see the delay, and a busy mock writes 16 KiB at a time instead of a line or two.
 */
export const FLUSH_MS = 50;

/**
 * Standard output, through SonicBoom (pino's writer), as pino's own asynchronous logging does,
 * but given each line as UTF-8 bytes (its `contentMode: 'buffer'`). Given strings, SonicBoom
 * appends each to the text gathered so far and, on the next write, measures that whole text in
 * bytes, which first copies it into one piece: with up to 4 KiB gathered, about 3 µs a line, as
 * much as the rest of the log line's work together. Given bytes, it keeps a list and adds up
 * their lengths.
 */
export function standardOutput(fd: number = process.stdout.fd): Output {
	const out = new SonicBoom({
		fd,
		sync: false,
		// A write costs the same for 4 KiB or 16 KiB (a trip through libuv's thread pool), so 16 KiB
		// costs a quarter as much a line; lines still wait 50 ms at most, for `periodicFlush`.
		// SonicBoom wants maxWrite above minLength: 64 KiB, a pipe's buffer, for a terminal that lags.
		minLength: 16 * 1024,
		maxWrite: 64 * 1024,
		periodicFlush: FLUSH_MS,
		contentMode: 'buffer',
	});
	/** SonicBoom's `write` in buffer mode: its types know only the string mode's `write(string)`. */
	const writeBytes = out.write.bind(out) as unknown as (bytes: Buffer) => boolean;
	const put = (text: string): void => {
		writeBytes(Buffer.from(text));
	};
	return {
		line: (text) => {
			put(`${text}\n`);
		},
		say: (text) => {
			put(`${text}\n`);
			out.flush();
		},
		write: (text) => {
			put(text);
			out.flush();
		},
		close: () =>
			new Promise<void>((resolve) => {
				out.once('close', () => resolve());
				out.end();
			}),
	};
}
