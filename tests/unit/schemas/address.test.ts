/** Which addresses a fixture may name: documentation IPv4 ranges and reserved example hosts only. */
import { describe, expect, it } from 'vitest';
import { isDocumentationAddress, isExampleHost } from '../../../src/schemas/address.ts';

describe('isDocumentationAddress', () => {
	it.each(['192.0.2.1', '198.51.100.254', '203.0.113.0', '203.0.113.255'])(
		'accepts %s, in a documentation range',
		(address) => {
			expect(isDocumentationAddress(address)).toBe(true);
		},
	);

	it.each([
		['10.20.30.40', 'a private address'],
		['192.0.20.1', 'a range that only starts like 192.0.2.'],
		['203.0.114.5', 'the next /24 after 203.0.113.0/24'],
		['203.0.113.256', 'an octet over 255'],
		['203.0.113.999', 'a three-digit octet over 255'],
		['203.0.113.07', 'an octet with a leading zero, which some tools read as octal'],
		['203.0.113.5.1', 'five parts'],
		['203.0.113', 'three parts'],
		['203.0.113.1234', 'a four-digit octet'],
		[' 203.0.113.5', 'a leading space'],
		['203.0.113.5 ', 'a trailing space'],
		['x203.0.113.5', 'a prefix before the address'],
		['203.0.113.5x', 'a suffix after the address'],
		['203.0.113.a', 'a letter for an octet'],
	])('refuses %s (%s)', (address) => {
		expect(isDocumentationAddress(address)).toBe(false);
	});
});

describe('isExampleHost', () => {
	it.each([
		'db.example',
		'cache-1.production.example',
		'example.com',
		'example.net',
		'example.org',
		'www.example.org',
		'DB.Production.Example',
		'a.example',
		'9.example',
		'a.example.com',
		'x.y.example.net',
	])('accepts %s, under a reserved example name', (host) => {
		expect(isExampleHost(host)).toBe(true);
	});

	it.each([
		['example', 'the bare reserved name, with no host under it'],
		['notexample.com', 'a name that only ends in "example.com"'],
		['db.notexample', 'a name that only ends in "example"'],
		['example.com.evil.net', 'a real domain that starts with example.com'],
		['db.example.internal', 'a real suffix after .example'],
		['example.co', 'another top-level domain'],
		['exampleXcom', 'no dot before com'],
		['db.exampleXcom', 'no dot before com, under a label'],
		['db..example', 'an empty label'],
		['-db.example', 'a label starting with a hyphen'],
		['db-.example', 'a label ending with a hyphen'],
		['db_1.example', 'an underscore in a label'],
		['.example', 'an empty first label'],
		['db.example.', 'a trailing dot'],
	])('refuses %s (%s)', (host) => {
		expect(isExampleHost(host)).toBe(false);
	});
});
