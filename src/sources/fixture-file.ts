/**
 * One view fixture file, read without trusting the file system: only a regular file is read, a
 * link only when it leads to one inside the views folder, never more than 1 MiB, and nothing is
 * opened that could block (a named pipe, a device). Its bytes must be UTF-8 (a byte-order mark
 * is dropped) and its text strict JSON whose objects give each field once. Every refusal is one
 * line saying what was expected and what was found, with the line and column or byte offset.
 *
 * The system calls are synchronous: a fixture is a few kilobytes on a local disk, and at 10,000
 * fixtures the promise-based calls (a FileHandle opened, checked, read and closed) cost about ten
 * times the CPU, most of the mock's start-up and of a build's reading.
 */
import {
	closeSync,
	constants,
	fstatSync,
	lstatSync,
	openSync,
	readSync,
	realpathSync,
	statSync,
	type BigIntStats,
} from 'node:fs';
import path from 'node:path';
import { printParseErrorCode, visit, type ParseErrorCode } from 'jsonc-parser';

/** The largest fixture file read: 1 MiB. A view's fixture is a few kilobytes. */
export const FIXTURE_MAX_BYTES = 1024 * 1024;

/** What a fixture's folder entry is now: its stamp, and the regular file to read or why not. */
export type FixtureLook =
	{ stamp: string; file: string; problem?: undefined } | { stamp: string; problem: string };

/** A file's identity and version: inode, size and modification time in nanoseconds. */
function stampOf(info: BigIntStats): string {
	return `${info.ino}:${info.size}:${info.mtimeNs}`;
}

/** The kinds of file that are not a regular one, as a message names them. */
const OTHER_KINDS = [
	['isDirectory', 'a folder'],
	['isFIFO', 'a named pipe (FIFO)'],
	['isSocket', 'a socket'],
	['isCharacterDevice', 'a character device'],
	['isBlockDevice', 'a block device'],
] as const;

/** The methods of a file's status that tell its kind. */
export type FileKind = Pick<BigIntStats, 'isFile' | (typeof OTHER_KINDS)[number][0]>;

/** Why a file of this kind is not read, or undefined for a regular file. */
export function kindProblem(info: FileKind): string | undefined {
	if (info.isFile()) return undefined;
	// Stryker disable next-line StringLiteral: every kind but a link (which only lstat reports) is listed above
	const kind = OTHER_KINDS.find(([is]) => info[is]())?.[1] ?? 'not one';
	return `expected a regular file, but this is ${kind}`;
}

/** The message of a file over the size limit. */
function tooLarge(size: number | bigint): string {
	return `expected a file of at most 1 MiB (${FIXTURE_MAX_BYTES} bytes), but this one has ${size} bytes`;
}

/** Why a file operation failed, as Node words it: `ENOENT: no such file or directory, open '…'`. */
function reasonOf(error: unknown): string {
	return (error as NodeJS.ErrnoException).message;
}

/** The system's code for why a file operation failed: `ENOENT`, `ELOOP`. */
function codeOf(error: unknown): string {
	return String((error as NodeJS.ErrnoException).code);
}

/** Why a link cannot be followed. */
function brokenLink(error: unknown): string {
	const code = codeOf(error);
	const why =
		code === 'ELOOP'
			? 'it leads round a loop of links'
			: code === 'ENOENT'
				? 'what it leads to does not exist'
				: `it cannot be followed (${reasonOf(error)})`;
	return `expected a link to a file inside the views folder, but ${why}`;
}

/** The stamp and the problem, if any, of a file's status: a regular file of at most 1 MiB. */
function lookFromStatus(stamp: string, file: string, info: BigIntStats): FixtureLook {
	const problem = kindProblem(info);
	if (problem) return { stamp, problem };
	if (info.size > FIXTURE_MAX_BYTES) return { stamp, problem: tooLarge(info.size) };
	return { stamp, file };
}

/**
 * Looks at a fixture's entry in the views folder (`root`, its real path) without opening it: its
 * stamp, which changes whenever the file (or a link's target) does, and the regular file to read,
 * or why it is not read.
 */
export function lookAtFixture(file: string, root: string): FixtureLook {
	let entry: BigIntStats;
	try {
		entry = lstatSync(file, { bigint: true });
	} catch (error) {
		return { stamp: codeOf(error), problem: `cannot be read (${reasonOf(error)})` };
	}
	const own = stampOf(entry);
	if (!entry.isSymbolicLink()) return lookFromStatus(own, file, entry);
	let target: string;
	try {
		// The system's realpath, as fs/promises uses: its errors name the link, not a step of it.
		target = realpathSync.native(file);
	} catch (error) {
		return { stamp: `${own}>${codeOf(error)}`, problem: brokenLink(error) };
	}
	if (!target.startsWith(`${root}${path.sep}`)) {
		return {
			stamp: `${own}>${target}`,
			problem: `expected a link to a file inside the views folder, but it leads to ${target}`,
		};
	}
	let info: BigIntStats;
	try {
		info = statSync(target, { bigint: true });
	} catch (error) {
		// Stryker disable next-line StringLiteral,ObjectLiteral: only a target removed between realpath and stat gets here
		return { stamp: `${own}>${codeOf(error)}`, problem: brokenLink(error) };
	}
	return lookFromStatus(`${own}>${stampOf(info)}`, target, info);
}

/**
 * Reads a regular file of at most 1 MiB. It is opened without following a link and without
 * waiting (O_NONBLOCK: a named pipe put in its place since it was looked at does not block), and
 * checked again once open, so a file swapped or grown since is refused as it would have been.
 * No more is read than the file held when opened: one still growing is read again once its
 * stamp shows the change.
 */
export function readFixtureBytes(
	file: string,
): { bytes: Uint8Array; problem?: undefined } | { problem: string } {
	let descriptor: number;
	try {
		descriptor = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
	} catch (error) {
		return { problem: `cannot be read (${reasonOf(error)})` };
	}
	try {
		const info = fstatSync(descriptor);
		const problem = kindProblem(info);
		if (problem) return { problem };
		if (info.size > FIXTURE_MAX_BYTES) return { problem: tooLarge(info.size) };
		const buffer = Buffer.alloc(info.size);
		let length = 0;
		for (;;) {
			const bytesRead = readSync(descriptor, buffer, length, info.size - length, length);
			if (bytesRead === 0) break;
			length += bytesRead;
		}
		return { bytes: buffer.subarray(0, length) };
	} finally {
		closeSync(descriptor);
	}
}

/** The buffer a listed fixture is read into, made at the first (the largest a fixture may be). */
let scratch: Buffer | undefined;

/**
 * Reads a fixture that its folder's listing gave as a regular file, with no look at it first: it
 * is opened as `readFixtureBytes` opens a file (no link followed, never waiting), and its status
 * once open gives its stamp, the one `lookAtFixture` gives a regular file. Undefined when it
 * cannot be opened or is, once open, anything but a regular file of at most 1 MiB (swapped since
 * the listing): such an entry is looked at and read as any other, which tells what it is. The
 * bytes are those of a buffer the next call reuses: they are to be hashed or decoded at once.
 */
export function readListedFixture(file: string): { stamp: string; bytes: Uint8Array } | undefined {
	let descriptor: number;
	try {
		descriptor = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
	} catch {
		// Gone, a link, a folder or unreadable since it was listed: the caller looks at it as at
		// any other entry (lookAtFixture), which says what it is.
		return undefined;
	}
	try {
		const info = fstatSync(descriptor, { bigint: true });
		if (!info.isFile() || info.size > FIXTURE_MAX_BYTES) return undefined;
		const size = Number(info.size);
		scratch ??= Buffer.allocUnsafe(FIXTURE_MAX_BYTES);
		let length = 0;
		for (;;) {
			const bytesRead = readSync(descriptor, scratch, length, size - length, length);
			if (bytesRead === 0) break;
			length += bytesRead;
		}
		return { stamp: stampOf(info), bytes: scratch.subarray(0, length) };
	} finally {
		closeSync(descriptor);
	}
}

/** A decoder that refuses what is not UTF-8 and keeps a byte-order mark (the JSON step drops it). */
const strictUtf8 = (): TextDecoder => new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Where bytes stop being UTF-8: the offset of the first byte of the first sequence that is not.
 * A streaming decoder takes any prefix that is UTF-8 so far (it waits on an unfinished sequence),
 * so the longest such prefix is found by halving; the sequence at fault starts where the text
 * decoded from that prefix ends.
 */
export function invalidUtf8Offset(bytes: Uint8Array): number {
	// Bytes that are not UTF-8 as a whole: at most all but the last are, while a stream waits.
	let good = 0;
	let bad = bytes.length;
	while (bad - good > 1) {
		const middle = (good + bad) >>> 1;
		try {
			strictUtf8().decode(bytes.subarray(0, middle), { stream: true });
			good = middle;
		} catch {
			// The decoder throws only for bytes that are not UTF-8: the invalid part lies before
			// `middle`.
			bad = middle;
		}
	}
	const text = strictUtf8().decode(bytes.subarray(0, good), { stream: true });
	return Buffer.byteLength(text);
}

/** A fixture's bytes as text, or where they stop being UTF-8. */
export function decodeFixture(
	bytes: Uint8Array,
): { text: string; problem?: undefined } | { problem: string } {
	try {
		return { text: strictUtf8().decode(bytes) };
	} catch {
		// The decoder throws only for bytes that are not UTF-8: the problem says where they stop
		// being so.
		const offset = invalidUtf8Offset(bytes);
		return {
			problem: `expected UTF-8 text, but the bytes from offset ${offset} are not UTF-8 (save the file as UTF-8)`,
		};
	}
}

/** One thing wrong with a fixture's JSON: the field it concerns (empty for the file) and what. */
export interface JsonProblem {
	field: string;
	message: string;
}

/** Spells a path in a fixture the way the fixture reads: `users[3].apiKey`. */
export function fieldPath(segments: readonly PropertyKey[]): string {
	return segments
		.map((segment, index) =>
			typeof segment === 'number' ? `[${segment}]` : `${index === 0 ? '' : '.'}${String(segment)}`,
		)
		.join('');
}

/** The line and column (from 1, in UTF-16 code units) of an offset in a text. */
export function positionAt(text: string, offset: number): { line: number; column: number } {
	const before = text.slice(0, offset);
	return {
		line: before.split(/\r\n?|\n/).length,
		column: before.length - before.search(/[^\r\n]*$/) + 1,
	};
}

/**
 * What a syntax error found, by the parser's name for it; `{found}` is the text at fault. With
 * comments refused and numbers scanned whole, the parser never names InvalidNumberFormat nor
 * UnexpectedEndOfComment.
 */
const SYNTAX_ERRORS: Record<string, string> = {
	InvalidSymbol: '{found}, which is not a JSON value',
	PropertyNameExpected: '{found} where a field name in double quotes belongs',
	ValueExpected: '{found} where a value belongs',
	ColonExpected: '{found} where ":" belongs',
	CommaExpected: '{found} where "," belongs',
	CloseBraceExpected: '{found} where "}" belongs',
	CloseBracketExpected: '{found} where "]" belongs',
	EndOfFileExpected: '{found} after the end of the JSON value',
	InvalidCommentToken: 'a comment, which JSON does not allow',
	UnexpectedEndOfString: 'a string that does not end on its line',
	UnexpectedEndOfNumber: 'a number that ends too soon',
	InvalidUnicode: 'a \\u escape without four hexadecimal digits',
	InvalidEscapeCharacter: 'a backslash escape JSON does not have',
	InvalidCharacter: 'a control character in a string, where JSON needs an escape such as \\t',
};

/** The longest piece of a fixture a syntax error quotes. */
const QUOTE_LENGTH = 20;

/** The text at fault, quoted and cut short, or "the end of the file". */
function quoted(text: string): string {
	if (text === '') return 'the end of the file';
	return text.length > QUOTE_LENGTH ? `\`${text.slice(0, QUOTE_LENGTH)}…\`` : `\`${text}\``;
}

/** A syntax error's message: where it is and what was found there. */
function syntaxMessage(source: string, offset: number, found: string, what: string): string {
	const { line, column } = positionAt(source, offset);
	return `expected valid JSON, but line ${line}, column ${column} has ${what.replace('{found}', quoted(found))}`;
}

/** The text of a fixture without the byte-order mark an editor may have written first. */
function withoutByteOrderMark(text: string): string {
	return text.startsWith('\uFEFF') ? text.slice(1) : text;
}

/** The deepest nesting of objects and arrays a fixture may have; a view needs 4. */
export const FIXTURE_MAX_DEPTH = 64;

/**
 * What one pass over a fixture's text finds outside its strings (whose brackets and colons are
 * skipped): where it first opens an object or array deeper than `FIXTURE_MAX_DEPTH` (-1 if
 * nowhere; the pass stops there), and how many colons it holds, which in JSON is how many fields
 * its objects give.
 */
function scanStructure(text: string): { tooDeep: number; colons: number } {
	let depth = 0;
	let colons = 0;
	let inString = false;
	for (let offset = 0; offset < text.length; offset += 1) {
		const character = text[offset];
		if (inString) {
			if (character === '\\') offset += 1;
			else if (character === '"') inString = false;
		} else if (character === '"') inString = true;
		else if (character === ':') colons += 1;
		else if (character === '{' || character === '[') {
			depth += 1;
			if (depth > FIXTURE_MAX_DEPTH) return { tooDeep: offset, colons };
		} else if (character === '}' || character === ']') depth -= 1;
	}
	return { tooDeep: -1, colons };
}

/**
 * Where a text first opens an object or array deeper than `FIXTURE_MAX_DEPTH`, or -1: one pass,
 * with the brackets inside strings skipped, so the parser (which recurses once per level, and
 * runs out of stack a few thousand levels down) never reads such a text.
 */
export function tooDeepOffset(text: string): number {
	return scanStructure(text).tooDeep;
}

/** How many fields the objects of a parsed JSON value hold, those of nested objects included. */
function fieldCount(value: unknown): number {
	if (typeof value !== 'object' || value === null) return 0;
	const members = Array.isArray(value) ? (value as unknown[]) : Object.values(value);
	let count = Array.isArray(value) ? 0 : members.length;
	for (const member of members) count += fieldCount(member);
	return count;
}

/** The value of a JSON text, or undefined when JSON.parse refuses it. */
function parsedOrUndefined(text: string): { value: unknown } | undefined {
	try {
		return { value: JSON.parse(text) as unknown };
	} catch {
		// JSON.parse throws only a SyntaxError, for text that is no JSON: the caller's own parser
		// then finds the first syntax error, with its line.
		return undefined;
	}
}

/**
 * Parses a fixture's text as strict JSON (RFC 8259: no comments, no trailing commas, no NaN, no
 * white space but space, tab and line breaks) with each field once in each object. A byte-order mark is dropped. Gives the
 * value, or where it nests deeper than `FIXTURE_MAX_DEPTH`, or the first syntax error with its
 * line and column, or every field given twice with the lines of both.
 */
export function parseFixtureJson(
	text: string,
): { data: unknown; problems: [] } | { data?: undefined; problems: JsonProblem[] } {
	const source = withoutByteOrderMark(text);
	const { tooDeep, colons } = scanStructure(source);
	if (tooDeep >= 0) {
		const { line, column } = positionAt(source, tooDeep);
		const message = `expected JSON nested at most ${FIXTURE_MAX_DEPTH} levels deep (a view needs 4), but line ${line}, column ${column} opens level ${FIXTURE_MAX_DEPTH + 1}`;
		return { problems: [{ field: '', message }] };
	}
	// The usual fixture, read the fast way: JSON.parse takes exactly the texts the strict parser
	// below takes (RFC 8259, neither with comments nor trailing commas), and keeps a field given
	// twice in one object once, so a value with as many fields as the text has colons outside its
	// strings gives every field once. Anything else goes to the parser below, which finds the
	// first syntax error or every field given twice, with their lines, as it always did.
	const parsed = parsedOrUndefined(source);
	// Stryker disable next-line ConditionalExpression: without the fast way the parser below gives the same value, only slower
	if (parsed !== undefined && fieldCount(parsed.value) === colons) {
		return { data: parsed.value, problems: [] };
	}
	let syntax: string | undefined;
	const duplicates: JsonProblem[] = [];
	/** The fields of each object being read, innermost last, with the line of each. */
	const objects: Map<string, number>[] = [];
	visit(
		source,
		{
			onObjectBegin: () => {
				objects.push(new Map());
			},
			onObjectEnd: () => {
				objects.pop();
			},
			onObjectProperty: (property, _offset, _length, startLine, _column, pathSupplier) => {
				const fields = objects.at(-1) ?? new Map<string, number>();
				const line = startLine + 1;
				const first = fields.get(property);
				if (first === undefined) {
					fields.set(property, line);
					return;
				}
				duplicates.push({
					field: fieldPath([...pathSupplier(), property]),
					message: `expected once in its object, but line ${line} gives it again after line ${first} (JSON would keep only the last)`,
				});
			},
			onError: (code: ParseErrorCode, offset, length) => {
				// The first error alone is told: the parser's later ones follow from it.
				if (syntax !== undefined) return;
				const found = source.slice(offset, offset + length);
				const before = source.slice(0, offset).trimEnd();
				if ((found === '}' || found === ']') && before.endsWith(',')) {
					syntax = syntaxMessage(
						source,
						before.length - 1,
						'',
						`a comma before "${found}", which JSON does not allow`,
					);
				} else {
					// Stryker disable next-line StringLiteral: the parser names no error outside the table
					const what = SYNTAX_ERRORS[printParseErrorCode(code)] ?? '{found}';
					syntax = syntaxMessage(source, offset, found, what);
				}
			},
		},
		{ disallowComments: true, allowTrailingComma: false, allowEmptyContent: false },
	);
	if (syntax) return { problems: [{ field: '', message: syntax }] };
	if (duplicates.length > 0) return { problems: duplicates };
	try {
		return { data: JSON.parse(source) as unknown, problems: [] };
	} catch (error) {
		// Stryker disable next-line all: the parser above refuses all that JSON.parse refuses; this is a guard
		return { problems: [{ field: '', message: `expected valid JSON (${String(error)})` }] };
	}
}
