/** "On this page" marks the section the reader is in, from where the headings stand. */
import { describe, expect, it } from 'vitest';
import { currentSection } from '../../../src/client/on-this-page/current-section.ts';

describe('currentSection', () => {
	it('marks the first section before any heading reaches the reading line', () => {
		expect(currentSection([400, 900, 1600], 300)).toBe(0);
	});

	it('marks the last heading at or above the reading line', () => {
		expect(currentSection([-800, -100, 300, 700], 300)).toBe(2);
		expect(currentSection([-800, -100, 301, 700], 300)).toBe(1);
	});

	it('at the end of the page marks the last heading in the window, short as its section is', () => {
		expect(currentSection([-900, 100, 500, 820], 280, true, 844)).toBe(3);
		expect(currentSection([-900, 100, 500, 900], 280, true, 844)).toBe(2);
		expect(currentSection([-900, 100, 500, 820], 280, false, 844)).toBe(1);
	});

	it('marks nothing on a page without headings', () => {
		expect(currentSection([], 300)).toBe(-1);
	});
});
