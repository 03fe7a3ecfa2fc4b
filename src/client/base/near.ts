/**
 * Runs `load` once, when the first of `targets` comes within a screen of the viewport, as Astro's
 * `client:visible` does for islands: a script for something below the first screen (a view page's
 * sample tabs) is fetched only when a reader scrolls toward it, not with the page.
 */

/** How near the viewport counts: one screen's height above and below it. */
export const NEAR_MARGIN = '100% 0px';

/** The part of IntersectionObserver this uses. */
export interface NearObserver {
	observe(target: Element): void;
	disconnect(): void;
}

/** Makes an observer; the browser's IntersectionObserver by default. */
export type NearObserverFactory = (
	callback: (entries: readonly { isIntersecting: boolean }[]) => void,
	options: { rootMargin: string },
) => NearObserver;

const browserObserver: NearObserverFactory = (callback, options) =>
	new IntersectionObserver(callback, options);

/**
 * Calls `load` once, when any of `targets` first comes near the viewport; never without targets.
 * `observer` is null where the browser has no IntersectionObserver.
 */
export function whenNear(
	targets: Iterable<Element>,
	load: () => void,
	observer: NearObserverFactory | null = typeof IntersectionObserver === 'function'
		? browserObserver
		: null,
): void {
	const elements = [...targets];
	if (elements.length === 0) return;
	// A browser without IntersectionObserver loads it with the page, as before.
	if (!observer) {
		load();
		return;
	}
	let loaded = false;
	const watcher = observer(
		(entries) => {
			if (loaded || !entries.some((entry) => entry.isIntersecting)) return;
			loaded = true;
			watcher.disconnect();
			load();
		},
		{ rootMargin: NEAR_MARGIN },
	);
	for (const element of elements) watcher.observe(element);
}
