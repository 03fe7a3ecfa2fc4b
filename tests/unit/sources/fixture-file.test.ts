/**
 * One fixture file read without trusting the file system: what is looked at before anything is
 * opened, what is read, how bytes become text and text becomes JSON, and the one-line message
 * each refusal gives.
 */
import { execFileSync } from 'node:child_process';
import { lstat, mkdir, mkdtemp, realpath, rm, stat, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	decodeFixture,
	FIXTURE_MAX_BYTES,
	invalidUtf8Offset,
	kindProblem,
	lookAtFixture,
	parseFixtureJson,
	positionAt,
	readFixtureBytes,
	readListedFixture,
	type FileKind,
} from '../../../src/sources/fixture-file.ts';

let scratch: string;
/** A views folder, by its real path, as the folder reader passes it. */
let root: string;

beforeAll(async () => {
	scratch = await realpath(await mkdtemp(path.join(os.tmpdir(), 'console-portal-fixture-file-')));
	root = path.join(scratch, 'views');
	await mkdir(root);
});

afterAll(async () => {
	await rm(scratch, { recursive: true, force: true });
});

/** A file's stamp as the reader words it: inode, size, modification time in nanoseconds. */
async function stampOf(file: string): Promise<string> {
	const info = await stat(file, { bigint: true });
	return `${info.ino}:${info.size}:${info.mtimeNs}`;
}

/** A file's status that says it is of one kind only. */
function statusOf(kind: keyof FileKind): FileKind {
	const is = (which: keyof FileKind) => () => which === kind;
	return {
		isFile: is('isFile'),
		isDirectory: is('isDirectory'),
		isFIFO: is('isFIFO'),
		isSocket: is('isSocket'),
		isCharacterDevice: is('isCharacterDevice'),
		isBlockDevice: is('isBlockDevice'),
	};
}

describe('the kind of a file', () => {
	it.each([
		['isDirectory', 'a folder'],
		['isFIFO', 'a named pipe (FIFO)'],
		['isSocket', 'a socket'],
		['isCharacterDevice', 'a character device'],
		['isBlockDevice', 'a block device'],
	] as const)('refuses what %s says, naming it as %s', (kind, named) => {
		expect(kindProblem(statusOf(kind))).toBe(`expected a regular file, but this is ${named}`);
	});

	it('takes a regular file', () => {
		expect(kindProblem(statusOf('isFile'))).toBeUndefined();
	});
});

describe('looking at a fixture before it is opened', () => {
	it('gives a regular file, stamped by inode, size and modification time', async () => {
		const file = path.join(root, 'plain.json');
		await writeFile(file, '{}');
		expect(lookAtFixture(file, root)).toEqual({ stamp: await stampOf(file), file });
	});

	it('stamps a file anew when it changes', async () => {
		const file = path.join(root, 'changing.json');
		await writeFile(file, '{}');
		const before = lookAtFixture(file, root);
		await writeFile(file, '{ }');
		const after = lookAtFixture(file, root);
		expect(after.stamp).not.toBe(before.stamp);
	});

	it('takes a file of exactly 1 MiB and refuses one byte more, naming the limit', async () => {
		const file = path.join(root, 'edge.json');
		await writeFile(file, Buffer.alloc(FIXTURE_MAX_BYTES, 0x20));
		expect(lookAtFixture(file, root)).toEqual({ stamp: await stampOf(file), file });
		await writeFile(file, Buffer.alloc(FIXTURE_MAX_BYTES + 1, 0x20));
		expect(lookAtFixture(file, root)).toEqual({
			stamp: await stampOf(file),
			problem: 'expected a file of at most 1 MiB (1048576 bytes), but this one has 1048577 bytes',
		});
	});

	it('refuses a named pipe without opening it', async () => {
		const file = path.join(root, 'pipe.json');
		execFileSync('mkfifo', [file]);
		expect(lookAtFixture(file, root)).toEqual({
			stamp: await stampOf(file),
			problem: 'expected a regular file, but this is a named pipe (FIFO)',
		});
	});

	it('refuses a device inside the folder', async () => {
		expect(lookAtFixture('/dev/null', '/dev')).toEqual({
			stamp: await stampOf('/dev/null'),
			problem: 'expected a regular file, but this is a character device',
		});
	});

	it('says an entry gone since the folder was listed cannot be read', () => {
		const file = path.join(root, 'vanished.json');
		expect(lookAtFixture(file, root)).toEqual({
			stamp: 'ENOENT',
			problem: `cannot be read (ENOENT: no such file or directory, lstat '${file}')`,
		});
	});

	it('follows a link to a regular file inside the folder, stamped by the link and its target', async () => {
		await mkdir(path.join(root, 'shared'));
		const target = path.join(root, 'shared', 'real.json');
		await writeFile(target, '{}');
		const link = path.join(root, 'alias.json');
		await symlink('shared/real.json', link);
		const linkInfo = await lstat(link, { bigint: true });
		const own = `${linkInfo.ino}:${linkInfo.size}:${linkInfo.mtimeNs}`;
		expect(lookAtFixture(link, root)).toEqual({
			stamp: `${own}>${await stampOf(target)}`,
			file: target,
		});
	});

	it('refuses a link to a folder inside the folder as a folder', async () => {
		const link = path.join(root, 'to-folder.json');
		await mkdir(path.join(root, 'inner'));
		await symlink('inner', link);
		const look = lookAtFixture(link, root);
		expect(look.problem).toBe('expected a regular file, but this is a folder');
		expect(look.stamp).toMatch(/^\d+:\d+:\d+>\d+:\d+:\d+$/);
	});

	it('refuses a link to a file over 1 MiB inside the folder', async () => {
		await writeFile(path.join(root, 'shared', 'big.txt'), Buffer.alloc(FIXTURE_MAX_BYTES + 1));
		const link = path.join(root, 'big-alias.json');
		await symlink('shared/big.txt', link);
		expect(lookAtFixture(link, root).problem).toBe(
			'expected a file of at most 1 MiB (1048576 bytes), but this one has 1048577 bytes',
		);
	});

	it('refuses a link out of the folder, naming where it leads', async () => {
		const outside = path.join(scratch, 'outside.json');
		await writeFile(outside, '{}');
		const link = path.join(root, 'out.json');
		await symlink(outside, link);
		const look = lookAtFixture(link, root);
		expect(look).toEqual({
			stamp: expect.stringMatching(new RegExp(`^\\d+:\\d+:\\d+>${outside}$`)) as unknown,
			problem: `expected a link to a file inside the views folder, but it leads to ${outside}`,
		});
	});

	it('refuses a link into a sibling folder whose name starts like the views folder', async () => {
		await mkdir(`${root}-other`);
		const sibling = path.join(`${root}-other`, 'view.json');
		await writeFile(sibling, '{}');
		const link = path.join(root, 'sibling.json');
		await symlink(sibling, link);
		expect(lookAtFixture(link, root).problem).toBe(
			`expected a link to a file inside the views folder, but it leads to ${sibling}`,
		);
	});

	it('refuses a link to the views folder itself', async () => {
		const link = path.join(root, 'self.json');
		await symlink('.', link);
		expect(lookAtFixture(link, root).problem).toBe(
			`expected a link to a file inside the views folder, but it leads to ${root}`,
		);
	});

	it('refuses a link round a loop, and a link to nothing, in words', async () => {
		const loop = path.join(root, 'loop.json');
		await symlink('loop.json', loop);
		expect(lookAtFixture(loop, root)).toEqual({
			stamp: expect.stringMatching(/^\d+:\d+:\d+>ELOOP$/) as unknown,
			problem:
				'expected a link to a file inside the views folder, but it leads round a loop of links',
		});
		const gone = path.join(root, 'gone.json');
		await symlink('nowhere.json', gone);
		expect(lookAtFixture(gone, root)).toEqual({
			stamp: expect.stringMatching(/^\d+:\d+:\d+>ENOENT$/) as unknown,
			problem:
				'expected a link to a file inside the views folder, but what it leads to does not exist',
		});
	});

	it('refuses a link through a file as if it were a folder, with the system’s words', async () => {
		const link = path.join(root, 'through.json');
		await symlink('plain.json/inner.json', link);
		const look = lookAtFixture(link, root);
		expect(look.stamp).toMatch(/^\d+:\d+:\d+>ENOTDIR$/);
		expect(look.problem).toBe(
			`expected a link to a file inside the views folder, but it cannot be followed (ENOTDIR: not a directory, realpath '${link}')`,
		);
	});
});

describe('reading a fixture', () => {
	it('gives every byte of a regular file', async () => {
		const file = path.join(root, 'bytes.json');
		await writeFile(file, '{"a":"é"}');
		const read = readFixtureBytes(file);
		expect(Buffer.from(read.problem === undefined ? read.bytes : []).toString()).toBe('{"a":"é"}');
	});

	it('gives an empty file as no bytes', async () => {
		const file = path.join(root, 'empty.json');
		await writeFile(file, '');
		expect(readFixtureBytes(file)).toEqual({ bytes: Buffer.alloc(0) });
	});

	it('gives a file of exactly 1 MiB whole', async () => {
		const file = path.join(root, 'whole.json');
		const content = Buffer.alloc(FIXTURE_MAX_BYTES, 0x61);
		content[FIXTURE_MAX_BYTES - 1] = 0x7a;
		await writeFile(file, content);
		const read = readFixtureBytes(file);
		expect(read.problem).toBeUndefined();
		expect(Buffer.compare(Buffer.from(read.problem === undefined ? read.bytes : []), content)).toBe(
			0,
		);
	});

	it('refuses a file grown over 1 MiB since it was looked at', async () => {
		const file = path.join(root, 'grown.json');
		await writeFile(file, Buffer.alloc(FIXTURE_MAX_BYTES + 1));
		expect(readFixtureBytes(file)).toEqual({
			problem: 'expected a file of at most 1 MiB (1048576 bytes), but this one has 1048577 bytes',
		});
	});

	it('refuses a named pipe put in a file’s place, without waiting on it', () => {
		const started = Date.now();
		expect(readFixtureBytes(path.join(root, 'pipe.json'))).toEqual({
			problem: 'expected a regular file, but this is a named pipe (FIFO)',
		});
		expect(Date.now() - started).toBeLessThan(1000);
	});

	it('refuses a folder put in a file’s place', () => {
		expect(readFixtureBytes(path.join(root, 'shared'))).toEqual({
			problem: 'expected a regular file, but this is a folder',
		});
	});

	it('does not follow a link put in a file’s place', () => {
		const link = path.join(root, 'alias.json');
		expect(readFixtureBytes(link)).toEqual({
			problem: `cannot be read (ELOOP: too many symbolic links encountered, open '${link}')`,
		});
	});

	it('says a file gone since it was looked at cannot be read', () => {
		const file = path.join(root, 'vanished.json');
		expect(readFixtureBytes(file)).toEqual({
			problem: `cannot be read (ENOENT: no such file or directory, open '${file}')`,
		});
	});
});

describe('reading a fixture the folder’s listing gives as a regular file', () => {
	it('gives its bytes and the stamp a look at it gives, whole at 1 MiB', async () => {
		const file = path.join(root, 'listed.json');
		const content = Buffer.alloc(FIXTURE_MAX_BYTES, 0x61);
		content[FIXTURE_MAX_BYTES - 1] = 0x7a;
		await writeFile(file, content);
		const listed = readListedFixture(file);
		expect(listed?.stamp).toBe(await stampOf(file));
		expect(listed?.stamp).toBe(lookAtFixture(file, root).stamp);
		expect(Buffer.compare(Buffer.from(listed?.bytes ?? []), content)).toBe(0);
	});

	it('gives a smaller file after a larger one only its own bytes', async () => {
		const large = path.join(root, 'listed-large.json');
		const small = path.join(root, 'listed-small.json');
		await writeFile(large, '{"a":"a long value"}');
		await writeFile(small, '{"b":"é"}');
		readListedFixture(large);
		expect(Buffer.from(readListedFixture(small)?.bytes ?? []).toString()).toBe('{"b":"é"}');
		await writeFile(small, '');
		expect(readListedFixture(small)?.bytes).toHaveLength(0);
	});

	it('gives nothing, so the entry is looked at, for what is not a regular file of at most 1 MiB once open', async () => {
		const grown = path.join(root, 'listed-grown.json');
		await writeFile(grown, Buffer.alloc(FIXTURE_MAX_BYTES + 1));
		for (const name of ['pipe.json', 'shared', 'alias.json', 'listed-grown.json', 'gone.json']) {
			expect(readListedFixture(path.join(root, name))).toBeUndefined();
		}
	});
});

describe('the bytes of a fixture as text', () => {
	const bytes = (...values: (number | string)[]): Uint8Array =>
		Buffer.concat(values.map((value) => Buffer.from(typeof value === 'string' ? value : [value])));

	it('are UTF-8, a byte-order mark kept for the JSON step to drop', () => {
		expect(decodeFixture(bytes(0xef, 0xbb, 0xbf, '{"a":"é€😀"}'))).toEqual({
			text: '\ufeff{"a":"é€😀"}',
		});
		expect(decodeFixture(bytes())).toEqual({ text: '' });
	});

	it('that are not UTF-8 are refused with the offset of the first bad sequence', () => {
		expect(decodeFixture(bytes('{"name":"Jos', 0xe9, '"}'))).toEqual({
			problem:
				'expected UTF-8 text, but the bytes from offset 12 are not UTF-8 (save the file as UTF-8)',
		});
	});

	it.each([
		{ what: 'a bad first byte', input: bytes(0xff, 'abc'), offset: 0 },
		{ what: 'a bad last byte', input: bytes('abc', 0xff), offset: 3 },
		{ what: 'a lone continuation byte', input: bytes('ab', 0x80, 'c'), offset: 2 },
		{ what: 'a sequence cut short in the middle', input: bytes('a', 0xe2, 0x28, 0xa1), offset: 1 },
		{ what: 'a sequence cut short by the end', input: bytes('ab', 0xe2, 0x82), offset: 2 },
		{ what: 'an overlong form', input: bytes('x', 0xc0, 0x80), offset: 1 },
		{ what: 'a surrogate', input: bytes(0xed, 0xa0, 0x80), offset: 0 },
		{ what: 'a code point past U+10FFFF', input: bytes(0xf4, 0x90, 0x80, 0x80), offset: 0 },
		{ what: 'a bad byte after characters of every width', input: bytes('aé€😀', 0xfe), offset: 10 },
	])('counts bytes, not characters, to $what', ({ input, offset }) => {
		expect(invalidUtf8Offset(input)).toBe(offset);
	});
});

describe('the position of an offset in a text', () => {
	it.each([
		{ text: 'abc', offset: 0, at: { line: 1, column: 1 } },
		{ text: 'abc', offset: 2, at: { line: 1, column: 3 } },
		{ text: 'a\nbc', offset: 3, at: { line: 2, column: 2 } },
		{ text: 'a\r\nbc', offset: 4, at: { line: 2, column: 2 } },
		{ text: 'a\rb\rc', offset: 4, at: { line: 3, column: 1 } },
		{ text: 'a\n\nb', offset: 3, at: { line: 3, column: 1 } },
	])('finds $offset in $text at line $at.line, column $at.column', ({ text, offset, at }) => {
		expect(positionAt(text, offset)).toEqual(at);
	});
});

describe('a fixture’s text as JSON', () => {
	/** The one problem of a text, as its message. */
	const problemOf = (text: string): string => {
		const { problems } = parseFixtureJson(text);
		expect(problems).toHaveLength(1);
		return problems[0]?.message ?? '';
	};

	it('gives the value JSON.parse gives, a leading byte-order mark dropped', () => {
		expect(parseFixtureJson('\ufeff{"a":[1,"x",null,true],"b":{"c":-1.5e3}}')).toEqual({
			data: { a: [1, 'x', null, true], b: { c: -1500 } },
			problems: [],
		});
	});

	it('keeps a field named __proto__ as a field, not a prototype', () => {
		const { data } = parseFixtureJson('{"__proto__":{"polluted":true}}');
		expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
		expect(Object.keys(data as object)).toEqual(['__proto__']);
	});

	it('refuses a byte-order mark anywhere but first', () => {
		expect(problemOf('{"a":1}\ufeff')).toBe(
			'expected valid JSON, but line 1, column 8 has `\ufeff`, which is not a JSON value',
		);
	});

	it.each([
		['NaN', '{"a":NaN}', 'line 1, column 6 has `NaN`, which is not a JSON value'],
		['a single-quoted name', "{\n'a':1}", "line 2, column 1 has `'a'`, which is not a JSON value"],
		[
			'a name without quotes',
			'{1:2}',
			'line 1, column 2 has `1` where a field name in double quotes belongs',
		],
		['a missing value', '{"a":}', 'line 1, column 6 has `}` where a value belongs'],
		['a missing colon', '{"a" 1}', 'line 1, column 6 has `1` where ":" belongs'],
		['a missing comma', '{"a":1 "b":2}', 'line 1, column 8 has `"b"` where "," belongs'],
		['an object left open', '{"a":1', 'line 1, column 7 has the end of the file where "}" belongs'],
		['a list left open', '[1', 'line 1, column 3 has the end of the file where "]" belongs'],
		['a second value', '{}\n{}', 'line 2, column 1 has `{` after the end of the JSON value'],
		[
			'a line comment',
			'{\n  // note\n}',
			'line 2, column 3 has a comment, which JSON does not allow',
		],
		[
			'a block comment',
			'{"a":1 /* x */}',
			'line 1, column 8 has a comment, which JSON does not allow',
		],
		[
			'a string left open',
			'{"a":"abc',
			'line 1, column 6 has a string that does not end on its line',
		],
		['a number cut short', '{"a":1.}', 'line 1, column 6 has a number that ends too soon'],
		[
			'a short \\u escape',
			'{"a":"\\u12"}',
			'line 1, column 6 has a \\u escape without four hexadecimal digits',
		],
		[
			'an unknown escape',
			'{"a":"\\q"}',
			'line 1, column 6 has a backslash escape JSON does not have',
		],
		[
			'a raw tab in a string',
			'{"a":"\t"}',
			'line 1, column 6 has a control character in a string, where JSON needs an escape such as \\t',
		],
		[
			'a trailing comma in an object',
			'{"a":1 ,\n }',
			'line 1, column 8 has a comma before "}", which JSON does not allow',
		],
		[
			'a trailing comma in a list',
			'[1,\r\n2,]',
			'line 2, column 2 has a comma before "]", which JSON does not allow',
		],
		['nothing at all', '', 'line 1, column 1 has the end of the file where a value belongs'],
		['white space alone', ' \n ', 'line 2, column 2 has the end of the file where a value belongs'],
	])('refuses %s in one line with its line and column', (_what, text, where) => {
		expect(problemOf(text)).toBe(`expected valid JSON, but ${where}`);
	});

	it('quotes at most 20 characters of what it found', () => {
		expect(problemOf('{"a":abcdefghijklmnopqrst}')).toContain('has `abcdefghijklmnopqrst`,');
		expect(problemOf('{"a":abcdefghijklmnopqrstu}')).toContain('has `abcdefghijklmnopqrst…`,');
	});

	it('refuses JSON nested 7,000 levels deep in one line, before the parser recurses that far', () => {
		// 16 KB that once threw "Maximum call stack size exceeded" from jsonc-parser, naming no file.
		const text = `{"users":${'['.repeat(7000)}${']'.repeat(7000)}}`;
		expect(parseFixtureJson(text)).toEqual({
			problems: [
				{
					field: '',
					message:
						'expected JSON nested at most 64 levels deep (a view needs 4), but line 1, column 73 opens level 65',
				},
			],
		});
	});

	it('counts only the brackets outside strings, and takes JSON nested 64 levels deep', () => {
		const deep = `${'['.repeat(64)}${']'.repeat(64)}`;
		expect(parseFixtureJson(deep).problems).toEqual([]);
		const quoted = `{"a":"${'['.repeat(100)}\\\\\\"${'{'.repeat(100)}"}`;
		expect(parseFixtureJson(quoted)).toEqual({
			data: { a: `${'['.repeat(100)}\\"${'{'.repeat(100)}` },
			problems: [],
		});
		expect(problemOf(`[\n${'{"a":'.repeat(64)}1${'}'.repeat(64)}]`)).toBe(
			'expected JSON nested at most 64 levels deep (a view needs 4), but line 2, column 316 opens level 65',
		);
	});

	it('counts a level closed as left, so many lists and objects side by side are not deep', () => {
		// A view's hundreds of users sit side by side at one level, each object closed before the next.
		const lists = `[${Array.from({ length: 100 }, () => '[]').join(',')}]`;
		expect(parseFixtureJson(lists)).toEqual({
			data: Array.from({ length: 100 }, () => []),
			problems: [],
		});
		const objects = `{"users":[${Array.from({ length: 100 }, () => '{"a":1}').join(',')}]}`;
		expect(parseFixtureJson(objects)).toEqual({
			data: { users: Array.from({ length: 100 }, () => ({ a: 1 })) },
			problems: [],
		});
	});

	it('tells the first syntax error alone', () => {
		expect(parseFixtureJson('{"a":NaN,"b":,"c" 1}').problems).toEqual([
			{
				field: '',
				message: 'expected valid JSON, but line 1, column 6 has `NaN`, which is not a JSON value',
			},
		]);
	});

	it('refuses a field given twice, naming it and both lines, where JSON.parse keeps the last', () => {
		const text = '{\n  "environment": "production",\n  "environment": "staging"\n}';
		expect(parseFixtureJson(text)).toEqual({
			problems: [
				{
					field: 'environment',
					message:
						'expected once in its object, but line 3 gives it again after line 2 (JSON would keep only the last)',
				},
			],
		});
	});

	it('names a field given twice deep in a fixture by its path, and each time it is given again', () => {
		const text = [
			'{"users": [',
			' {"name": "a"},',
			' {"name": "b", "role": "x",',
			'  "role": "y", "role": "z"}],',
			' "config": {"a\\u0062": 1,',
			'  "ab": 2}}',
		].join('\n');
		expect(parseFixtureJson(text).problems).toEqual([
			{
				field: 'users[1].role',
				message:
					'expected once in its object, but line 4 gives it again after line 3 (JSON would keep only the last)',
			},
			{
				field: 'users[1].role',
				message:
					'expected once in its object, but line 4 gives it again after line 3 (JSON would keep only the last)',
			},
			{
				field: 'config.ab',
				message:
					'expected once in its object, but line 6 gives it again after line 5 (JSON would keep only the last)',
			},
		]);
	});

	it('takes the same field name in different objects', () => {
		expect(parseFixtureJson('{"a":{"name":1},"b":{"name":2},"name":3}')).toEqual({
			data: { a: { name: 1 }, b: { name: 2 }, name: 3 },
			problems: [],
		});
	});

	it.each([
		['a list', '{"a":[1,2],"a":[3]}', 'a'],
		['an object', '{"a":{"b":1,"c":2},"a":{"b":1}}', 'a'],
		['objects in a list', '{"u":[{"x":1},{"x":2,"x":3}]}', 'u[1].x'],
		['a colon in a string', '{"a":"x:y","a":"z"}', 'a'],
		['an escaped quote and a colon in a string', '{"a":"\\":","b":1,"b":2}', 'b'],
		['a colon in a field name', '{"a:b":1,"a:b":2}', 'a:b'],
		['an empty object', '{"a":{},"a":{}}', 'a'],
	])('refuses a field given twice whose values hold %s', (_what, text, field) => {
		expect(parseFixtureJson(text).problems).toEqual([
			{
				field,
				message:
					'expected once in its object, but line 1 gives it again after line 1 (JSON would keep only the last)',
			},
		]);
	});

	it('gives the value JSON.parse gives for colons, quotes and brackets inside strings', () => {
		const text = '{"a:b":"c:d","e":["f\\":[{",{"g\\\\":"h}"}],"i":{}}';
		expect(parseFixtureJson(text)).toEqual({
			data: { 'a:b': 'c:d', e: ['f":[{', { 'g\\': 'h}' }], i: {} },
			problems: [],
		});
	});

	it('counts a field again in an object that follows a nested one', () => {
		expect(parseFixtureJson('{"a":{"x":1},\n"a":2}').problems).toEqual([
			{
				field: 'a',
				message:
					'expected once in its object, but line 2 gives it again after line 1 (JSON would keep only the last)',
			},
		]);
	});
});
