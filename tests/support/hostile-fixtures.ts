/**
 * The hostile entries a views folder can hold, as a hostile-input run found them: things that are
 * not regular files, links that lead astray, files too large or not UTF-8, JSON that is not
 * strict, fields too long for a path, names that show nothing or read like another view's, and
 * file names that would forge or colour a terminal line. Each case makes its entry in a copy of
 * the fixtures and says the one line the build and the mock print for it. The unit tests, the
 * build and the running mock all go through this one list.
 */
import { execFileSync } from 'node:child_process';
import { copyFile, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { FIXTURE_MAX_BYTES } from '../../src/sources/fixture-file.ts';
import type { View } from '../../src/schemas/view.ts';
import { ROOT } from '../../support/processes.ts';
import { newView } from './fixture-edits.ts';

/** The folder of hostile fixtures kept as files, byte for byte. */
export const HOSTILE_FIXTURES = path.join(ROOT, 'tests/fixtures/hostile-fixtures');

/** One hostile entry of a views folder. */
export interface HostileCase {
	/** What the entry is, as a test names it. */
	name: string;
	/** The entry's file name in the views folder. */
	file: string;
	/**
	 * Makes the entry in `folder` (a copy of the fixtures, inside a scratch folder of its own);
	 * gives back what undoes anything beyond the entry itself (a socket's server).
	 */
	make: (folder: string) => Promise<() => Promise<void>>;
	/** The problem line after the entry's path and ": ", as printed. */
	line: (folder: string) => string;
}

const nothing = async (): Promise<void> => {};

/** A case whose entry is a file kept in tests/fixtures/hostile-fixtures. */
function kept(name: string, file: string, line: (folder: string) => string): HostileCase {
	return {
		name,
		file,
		make: async (folder) => {
			await copyFile(path.join(HOSTILE_FIXTURES, file), path.join(folder, file));
			return nothing;
		},
		line,
	};
}

/** A valid fixture of its own (keys, emails, name), as text, for a case that needs one. */
async function ownView(seed: number, environment: string): Promise<string> {
	const production = JSON.parse(
		await readFile(path.join(ROOT, 'content/views/production.json'), 'utf8'),
	) as View;
	return JSON.stringify({ ...newView(production, seed, `Quinn ${environment}`), environment });
}

/** The two names of the real `production.json` and a look-alike, as the problem words them. */
const twinLine =
	(twin: string) =>
	(folder: string): string =>
		`name: expected a name no other view has, but ${path.join(folder, 'production.json')} and this view are both named "production · Production" and "${twin}", which read alike (a view without a "name" field is named by its environment and configuration labels); give one of them a "name" of its own`;

/** The entries the file system makes: none of them is a regular file inside the folder. */
export const FILE_SYSTEM_CASES: readonly HostileCase[] = [
	{
		name: 'a named pipe (FIFO), which a plain read would wait on for ever',
		file: 'pipe.json',
		make: (folder) => {
			execFileSync('mkfifo', [path.join(folder, 'pipe.json')]);
			return Promise.resolve(nothing);
		},
		line: () => 'expected a regular file, but this is a named pipe (FIFO)',
	},
	{
		name: 'a folder',
		file: 'folder.json',
		make: async (folder) => {
			await mkdir(path.join(folder, 'folder.json'));
			return nothing;
		},
		line: () => 'expected a regular file, but this is a folder',
	},
	{
		name: 'a socket',
		file: 'socket.json',
		make: async (folder) => {
			const server = createServer();
			await new Promise<void>((resolve) =>
				server.listen(path.join(folder, 'socket.json'), resolve),
			);
			return () => new Promise<void>((resolve) => server.close(() => resolve()));
		},
		line: () => 'expected a regular file, but this is a socket',
	},
	{
		name: 'a link that leads round a loop',
		file: 'loop.json',
		make: async (folder) => {
			await symlink('loop.json', path.join(folder, 'loop.json'));
			return nothing;
		},
		line: () =>
			'expected a link to a file inside the views folder, but it leads round a loop of links',
	},
	{
		name: 'a link to nothing',
		file: 'gone.json',
		make: async (folder) => {
			await symlink('nowhere.json', path.join(folder, 'gone.json'));
			return nothing;
		},
		line: () =>
			'expected a link to a file inside the views folder, but what it leads to does not exist',
	},
	{
		name: 'a link to a fixture outside the views folder',
		file: 'outside.json',
		make: async (folder) => {
			const outside = path.join(path.dirname(folder), 'outside-view.json');
			await writeFile(outside, await ownView(201, 'hostile-outside'));
			await symlink(outside, path.join(folder, 'outside.json'));
			return nothing;
		},
		line: (folder) =>
			`expected a link to a file inside the views folder, but it leads to ${path.join(path.dirname(folder), 'outside-view.json')}`,
	},
	{
		name: 'a link to /dev/zero, which never ends',
		file: 'zero.json',
		make: async (folder) => {
			await symlink('/dev/zero', path.join(folder, 'zero.json'));
			return nothing;
		},
		line: () => 'expected a link to a file inside the views folder, but it leads to /dev/zero',
	},
];

/** The bytes of a valid fixture with one byte that is not UTF-8 (Latin-1 "é") in a user's name. */
export async function latin1View(): Promise<{ bytes: Buffer; offset: number }> {
	const text = await ownView(202, 'hostile-latin-1');
	const marker = 'Quinn hostile-latin-1';
	const offset = Buffer.byteLength(text.slice(0, text.indexOf(marker) + marker.length));
	const utf8 = Buffer.from(text.replace(marker, `${marker}\u00e9`));
	// UTF-8 writes "é" as C3 A9; Latin-1 as E9 alone.
	const bytes = Buffer.concat([
		utf8.subarray(0, offset),
		Buffer.from([0xe9]),
		utf8.subarray(offset + 2),
	]);
	return { bytes, offset };
}

/** A database URL whose name is a million characters long: the file stays under 1 MiB. */
const LONG_DATABASE_URL = `postgresql://console_app@db.production.example:5432/${'d'.repeat(1_000_000)}`;

/** The entries whose content or name is at fault. */
export const CONTENT_CASES: readonly HostileCase[] = [
	{
		name: 'a file over 1 MiB',
		file: 'large.json',
		make: async (folder) => {
			const text = await ownView(203, 'hostile-large');
			await writeFile(path.join(folder, 'large.json'), text.padEnd(FIXTURE_MAX_BYTES + 1, ' '));
			return nothing;
		},
		line: () => 'expected a file of at most 1 MiB (1048576 bytes), but this one has 1048577 bytes',
	},
	{
		name: 'bytes that are not UTF-8',
		file: 'latin-1.json',
		make: async (folder) => {
			await writeFile(path.join(folder, 'latin-1.json'), (await latin1View()).bytes);
			return nothing;
		},
		// The offset of the "é" after the user's name; latin1View's test checks it is that byte.
		line: () =>
			'expected UTF-8 text, but the bytes from offset 778 are not UTF-8 (save the file as UTF-8)',
	},
	{
		name: 'JSON nested 7,000 levels deep, which once ran the parser out of stack',
		file: 'deep.json',
		make: async (folder) => {
			const text = `{"users":${'['.repeat(7000)}${']'.repeat(7000)}}`;
			await writeFile(path.join(folder, 'deep.json'), text);
			return nothing;
		},
		line: () =>
			'expected JSON nested at most 64 levels deep (a view needs 4), but line 1, column 73 opens level 65',
	},
	kept(
		'a field given twice, of which JSON.parse keeps the last',
		'duplicate-key.json',
		() =>
			'environment: expected once in its object, but line 3 gives it again after line 2 (JSON would keep only the last)',
	),
	kept(
		'a trailing comma',
		'trailing-comma.json',
		() =>
			'expected valid JSON, but line 69, column 136 has a comma before "}", which JSON does not allow',
	),
	kept(
		'a comment',
		'comment.json',
		() => 'expected valid JSON, but line 2, column 3 has a comment, which JSON does not allow',
	),
	kept(
		'NaN',
		'not-a-number.json',
		() => 'expected valid JSON, but line 4, column 17 has `NaN`, which is not a JSON value',
	),
	kept(
		'a file name of 64 characters',
		`${'f'.repeat(64)}.json`,
		() => 'expected a file name of at most 63 characters before .json, but this one has 64',
	),
	kept(
		'an environment of 64 characters',
		'long-environment.json',
		() => 'environment: expected a slug of at most 63 characters',
	),
	kept(
		'an email with 65 characters before the "@"',
		'long-local-part.json',
		() => 'users[0].email: expected at most 64 characters before the "@"',
	),
	kept(
		'an email of 255 characters',
		'long-email.json',
		() => 'users[0].email: expected an email address of at most 254 characters',
	),
	kept(
		'a name of zero-width spaces alone',
		'invisible-name.json',
		() => 'name: expected a name with visible text, not only spaces or invisible characters',
	),
	kept(
		'a zero-width space inside a secret, which a copy would carry unseen',
		'zero-width-secret.json',
		() =>
			'config.secret_key: expected a secret without invisible characters, but character 5 is U+200B',
	),
	{
		name: 'a database name of a million characters, within the 1 MiB a file may have',
		file: 'long-database-name.json',
		make: async (folder) => {
			const view = JSON.parse(await ownView(206, 'hostile-long-database-name')) as View;
			view.config.database_url = LONG_DATABASE_URL;
			await writeFile(path.join(folder, 'long-database-name.json'), JSON.stringify(view));
			return nothing;
		},
		line: () =>
			`config.database_url: expected a URL of at most 2048 characters, but this one has ${LONG_DATABASE_URL.length}`,
	},
	kept(
		'a name that reads like another with a zero-width space in it',
		'twin-zero-width.json',
		twinLine('production\\u200b · Production'),
	),
	kept(
		'a name that reads like another with a Cyrillic letter in it',
		'twin-cyrillic.json',
		twinLine('\u0440roduction · Production'),
	),
	{
		name: 'a file name with a line break, which would forge a problem line',
		file: 'forged\n  production.json: name: forged.json',
		make: async (folder) => {
			const text = await ownView(204, 'hostile-forged-line');
			await writeFile(path.join(folder, 'forged\n  production.json: name: forged.json'), text);
			return nothing;
		},
		line: () => 'expected a file name that is a lowercase slug, like staging-us-east.json',
	},
	{
		name: 'a file name with a terminal escape sequence',
		file: '\u001b[31mred.json',
		make: async (folder) => {
			const text = await ownView(205, 'hostile-terminal-escape');
			await writeFile(path.join(folder, '\u001b[31mred.json'), text);
			return nothing;
		},
		line: () => 'expected a file name that is a lowercase slug, like staging-us-east.json',
	},
];

/** A fixture that only looks hostile and is accepted: a UTF-8 byte-order mark before the JSON. */
export const BYTE_ORDER_MARK = 'byte-order-mark.json';

/** The printed form of a path: control characters escaped as the problem lines write them. */
export function printed(file: string): string {
	return file.replaceAll('\n', '\\n').replaceAll('\u001b', '\\u001b');
}

/** The whole problem line of a case made in `folder`, as the build and the mock print it. */
export function problemLine(folder: string, hostile: HostileCase): string {
	return `  ${printed(path.join(folder, hostile.file))}: ${hostile.line(folder)}`;
}
