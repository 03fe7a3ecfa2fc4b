import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { AstroLoggerMessage } from 'astro';
import { routePerLine } from '../../../src/integrations/build-log.ts';

/** The text a destination was given, as the node log prints it (without time stamps or labels). */
function printed(events: AstroLoggerMessage[]): string {
	return events.map(({ message, newLine }) => `${message}${newLine ? '\n' : ''}`).join('');
}

/** What Astro writes for a route it starts, and for one it finished. */
const start = (route: string): AstroLoggerMessage => ({
	label: null,
	level: 'info',
	message: `  \u001b[34m├─\u001b[39m \u001b[2m${route}\u001b[22m`,
	newLine: false,
});
const done = (ms: number): AstroLoggerMessage => ({
	label: 'SKIP_FORMAT',
	level: 'info',
	message: ` \u001b[2m(+${ms}ms)\u001b[22m `,
	newLine: true,
});

describe('the build log', () => {
	it('prints each route on a line of its own when four pages render at once, and no line of only a time', () => {
		const written: AstroLoggerMessage[] = [];
		const log = routePerLine({ write: (event) => written.push(event) });
		// Four pages in flight: four starts, then their times, as Astro writes them.
		for (const route of ['/a/index.html', '/b/index.html', '/c/index.html', '/d/index.html']) {
			log.write(start(route));
		}
		for (const ms of [7, 7, 9, 16]) log.write(done(ms));
		log.write({ label: 'build', level: 'info', message: '4 page(s) built in 1s', newLine: true });
		const lines = stripVTControlCharacters(printed(written))
			.split('\n')
			.filter((line) => line !== '');
		expect(lines).toEqual([
			'  ├─ /a/index.html',
			'  ├─ /b/index.html',
			'  ├─ /c/index.html',
			'  ├─ /d/index.html',
			'4 page(s) built in 1s',
		]);
	});

	it('passes every other message as it was, warnings and errors included', () => {
		const written: AstroLoggerMessage[] = [];
		const log = routePerLine({ write: (event) => written.push(event) });
		const events: AstroLoggerMessage[] = [
			{ label: 'build', level: 'warn', message: 'Something to look at', newLine: true },
			{ label: 'SKIP_FORMAT', level: 'info', message: 'generating static routes', newLine: true },
			{ label: null, level: 'error', message: 'Caught error rendering /x/', newLine: true },
		];
		for (const event of events) log.write(event);
		expect(written).toEqual(events);
	});
});
