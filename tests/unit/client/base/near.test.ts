/** Loading a module when the first of some elements comes near the viewport (`whenNear`). */
import { describe, expect, it } from 'vitest';
import {
	NEAR_MARGIN,
	whenNear,
	type NearObserverFactory,
} from '../../../../src/client/base/near.ts';

/** An observer the test drives: what it was given, and a way to report entries to it. */
function fakeObserver() {
	const made: {
		options: { rootMargin: string };
		observed: Element[];
		disconnected: number;
		report: (entries: readonly { isIntersecting: boolean }[]) => void;
	}[] = [];
	const factory: NearObserverFactory = (callback, options) => {
		const observer = { options, observed: [] as Element[], disconnected: 0, report: callback };
		made.push(observer);
		return {
			observe: (target) => observer.observed.push(target),
			disconnect: () => (observer.disconnected += 1),
		};
	};
	return { made, factory };
}

/** Stand-ins for elements: whenNear only hands them to the observer. */
const element = (name: string): Element => ({ tagName: name }) as unknown as Element;

describe('whenNear', () => {
	it('watches every target, one screen around the viewport, and loads nothing yet', () => {
		const { made, factory } = fakeObserver();
		const targets = [element('a'), element('b')];
		let loads = 0;
		whenNear(targets, () => (loads += 1), factory);
		expect(made).toHaveLength(1);
		expect(made[0]?.observed).toEqual(targets);
		expect(made[0]?.options).toEqual({ rootMargin: '100% 0px' });
		expect(NEAR_MARGIN).toBe('100% 0px');
		expect(loads).toBe(0);
	});

	it('loads once, when a target first comes near, and stops watching', () => {
		const { made, factory } = fakeObserver();
		let loads = 0;
		whenNear([element('a'), element('b')], () => (loads += 1), factory);
		const observer = made[0];
		observer?.report([{ isIntersecting: false }, { isIntersecting: false }]);
		expect(loads).toBe(0);
		expect(observer?.disconnected).toBe(0);
		observer?.report([{ isIntersecting: false }, { isIntersecting: true }]);
		expect(loads).toBe(1);
		expect(observer?.disconnected).toBe(1);
		// A report already queued when it stopped watching loads nothing more.
		observer?.report([{ isIntersecting: true }]);
		expect(loads).toBe(1);
	});

	it('makes no observer and loads nothing when there is no target', () => {
		const { made, factory } = fakeObserver();
		let loads = 0;
		whenNear([], () => (loads += 1), factory);
		expect(made).toHaveLength(0);
		expect(loads).toBe(0);
	});

	it('loads at once where the browser has no IntersectionObserver', () => {
		let loads = 0;
		whenNear([element('a')], () => (loads += 1), null);
		expect(loads).toBe(1);
	});
});
