import { describe, expect, it } from 'vitest';
import { isDangerousUrl } from '../../../src/integrations/safe-urls.ts';

describe('links in guides that could run code are recognised', () => {
	it.each([
		'javascript:alert(1)',
		'JavaScript:alert(1)',
		' javascript:alert(1)',
		'java\tscript:alert(1)',
		'java\nscript:alert(1)',
		'\u0001javascript:alert(1)',
		'vbscript:msgbox(1)',
		'data:text/html,<script>alert(1)</script>',
	])('%j is dangerous', (url) => {
		expect(isDangerousUrl(url)).toBe(true);
	});

	it.each(['/docs/getting-started/', 'https://example.com/', '#section', 'mailto:ops@example.com'])(
		'%j is kept',
		(url) => {
			expect(isDangerousUrl(url)).toBe(false);
		},
	);

	it('keeps a data: image on an img, but not a data: page', () => {
		expect(isDangerousUrl('data:image/png;base64,iVBORw0KGgo=', true)).toBe(false);
		expect(isDangerousUrl('data:image/svg+xml;base64,PHN2Zz4=', true)).toBe(true);
		expect(isDangerousUrl('data:image/png;base64,iVBORw0KGgo=', false)).toBe(true);
	});
});
