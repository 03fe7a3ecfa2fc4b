/**
 * The build's log, one route to a line. Astro writes each page's route when it starts rendering it
 * and the time it took when it is done, on the same line; with four pages in flight
 * (`build.concurrency`), four routes ran onto one line and the times followed on lines of their
 * own, ` (+7ms)` and nothing else. Astro's node log, given each route as a line of its own and no
 * time it cannot pair with its route, is what this destination writes; every other message passes
 * as it was. Loaded by Astro as the config's `logger` entrypoint.
 */
import { stripVTControlCharacters } from 'node:util';
import type { AstroLoggerDestination, AstroLoggerMessage } from 'astro';
import nodeLog from 'astro/logger/node';

/** A route's line as Astro starts it: `  ├─ /views/a/index.html`. */
const ROUTE = /^\s*├─ \S/;
/** What Astro writes after a route once it is done: its time, or that it came from the cache. */
const AFTER_ROUTE = /^\s*(?:\(\+[\d.]+m?s\)|\((?:cached|restored)\))\s*$/;

/** A destination that writes each route on a line of its own to `next`, and the rest unchanged. */
export function routePerLine(next: AstroLoggerDestination): AstroLoggerDestination {
	return {
		write(event: AstroLoggerMessage): void {
			// Without the colours the node log adds unless NO_COLOR is set.
			const plain = stripVTControlCharacters(event.message);
			if (event.label === 'SKIP_FORMAT' && AFTER_ROUTE.test(plain)) return;
			if (!event.newLine && ROUTE.test(plain)) {
				next.write({ ...event, newLine: true });
				return;
			}
			next.write(event);
		},
		...(next.flush ? { flush: () => next.flush?.() } : {}),
		...(next.close ? { close: () => next.close?.() } : {}),
	};
}

/** The log Astro loads from the config's `logger` entrypoint: its node log, a route to a line. */
export default function buildLog(): AstroLoggerDestination {
	return routePerLine(nodeLog());
}
