/**
 * Standard output for the mock's request log and messages, written without blocking: lines that
 * come while a write is under way go out together in the next one, so a busy mock makes one write
 * for many requests, and a terminal that reads slowly (a paused pager, a scrolled-back tmux pane)
 * never holds up an answer. `close` resolves once every line is written.
 */
import SonicBoom from 'sonic-boom';

/** A writer of standard output. */
export interface Output {
	/** Writes a line; the line break is added. */
	line: (text: string) => void;
	/** Writes text as it is. */
	write: (text: string) => void;
	/** Writes what is left, then resolves. */
	close: () => Promise<void>;
}

/** Standard output, through SonicBoom (pino's writer). */
export function standardOutput(fd: number = process.stdout.fd): Output {
	const out = new SonicBoom({ fd, sync: false });
	return {
		line: (text) => {
			out.write(`${text}\n`);
		},
		write: (text) => {
			out.write(text);
		},
		close: () =>
			new Promise<void>((resolve) => {
				out.once('close', () => resolve());
				out.end();
			}),
	};
}
