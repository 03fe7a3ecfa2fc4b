/**
 * @vitest-environment happy-dom
 *
 * The try-it result block and history list are not in the page: the first Send writes the block after the summary line,
 * hidden, with every part send.ts fills, and a second Send does not write it again.
 */
import { describe, expect, it } from 'vitest';
import { addHistorySection, addResultBlock } from '../../../src/client/try-it/result-block.ts';

describe('addResultBlock', () => {
	it('writes the hidden result block after the summary, once', () => {
		document.body.innerHTML =
			'<try-it><form></form><p role="status" data-summary></p><section data-history hidden></section></try-it>';
		const panel = document.querySelector<HTMLElement>('try-it');
		if (!panel) throw new Error('no panel');
		addResultBlock(panel);
		addResultBlock(panel);
		const blocks = panel.querySelectorAll<HTMLElement>('[data-result]');
		expect(blocks).toHaveLength(1);
		expect(blocks[0]?.hidden).toBe(true);
		expect(panel.querySelector('[data-summary]')?.nextElementSibling).toBe(blocks[0]);
		for (const selector of [
			'[data-notes]',
			'[data-check] #try-it-check-heading',
			'[data-verdict]',
			'[data-violations]',
			'[data-whose]',
			'[data-request-heading]',
			'#try-it-curl',
			'[data-answer] [data-badge]',
			'[data-headers]',
			'#try-it-body[data-body]',
		])
			expect(blocks[0]?.querySelector(selector), selector).not.toBeNull();
		expect(
			[...panel.querySelectorAll('copy-button')].map((button) =>
				button.getAttribute('data-target'),
			),
		).toEqual(['try-it-curl', 'try-it-body']);
	});

	it('writes the hidden list of last requests at the end of the panel, once', () => {
		document.body.innerHTML =
			'<try-it><form></form><p role="status" data-summary></p><div data-result hidden></div></try-it>';
		const panel = document.querySelector<HTMLElement>('try-it');
		if (!panel) throw new Error('no panel');
		addHistorySection(panel);
		addHistorySection(panel);
		const sections = panel.querySelectorAll<HTMLElement>('[data-history]');
		expect(sections).toHaveLength(1);
		expect(sections[0]?.hidden).toBe(true);
		expect(panel.lastElementChild).toBe(sections[0]);
		expect(sections[0]?.querySelector('#try-it-history-heading')?.textContent).toBe(
			'Recent requests',
		);
		expect(sections[0]?.querySelector('[data-clear-history]')).not.toBeNull();
		expect(sections[0]?.querySelector('ol[data-history-list]')).not.toBeNull();
	});
});
