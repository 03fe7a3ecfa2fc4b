/**
 * How every tool answers: its result as structured content and as JSON text, and an error as one
 * line. No answer repeats a key: the keys a caller gave in the input are replaced in the answer,
 * and in an error line every secret value of the fixtures too.
 */
import { problemAnswered, problemHref, problemTypeUri } from '../src/shared/problems.ts';
import { code } from './context.ts';
import type { PortalReader } from './portal.ts';
import { ToolInputError } from './tool-names.ts';

/** A tool's result: its structured content, and the same as JSON text for clients without it. */
export function result(structured: object) {
	return {
		content: [{ type: 'text' as const, text: JSON.stringify(structured, null, 2) }],
		structuredContent: { ...structured } as Record<string, unknown>,
	};
}

/**
 * The problem an answer of the mock says, in the words of the table of problems: its type, title,
 * what to change and the problems guide's section; undefined for an answer that is no such problem.
 */
export function problemOfAnswer(sent: {
	headers: Readonly<Record<string, string>>;
	body: string;
}): { type: string; title: string; change: string; guide: string } | undefined {
	const mediaType = sent.headers['content-type']?.split(';', 1)[0]?.trim().toLowerCase();
	let json: unknown;
	try {
		json = JSON.parse(sent.body);
	} catch {
		// A body that is not JSON says no problem of the table; the answer is returned as it came.
		return undefined;
	}
	const problem = problemAnswered(mediaType, json);
	if (!problem) return undefined;
	return {
		type: problemTypeUri(problem.name),
		title: problem.title,
		change: problem.change,
		guide: problemHref(problem.name),
	};
}

/** A key of any prefix, as the console shapes them (`ick-4f1c9a07-Qx7m`), anywhere in a text. */
const KEY_IN_TEXT = /\b[a-z]{2,8}-[0-9a-f]{8}-[A-Za-z0-9]{4}\b/g;

/**
 * A bearer credential, as an Authorization header carries it, anywhere in a text: eight characters
 * or more with a digit among them, so that words after "Bearer" in a query are not taken for one.
 */
const BEARER_IN_TEXT = /\bBearer\s+(?=[^\s,;"']*\d)([^\s,;"']{8,})/gi;

/**
 * The keys a caller gave in a tool's input, anywhere in it: every text shaped like a key, and
 * every credential after `Bearer`. An input is never a place a key should go, so none is echoed.
 */
export function callersKeys(input: unknown): string[] {
	const found = new Set<string>();
	const visit = (value: unknown): void => {
		if (typeof value === 'string') {
			for (const [key] of value.matchAll(KEY_IN_TEXT)) found.add(key);
			for (const [, credential] of value.matchAll(BEARER_IN_TEXT)) found.add(credential ?? '');
		} else if (Array.isArray(value)) {
			value.forEach(visit);
		} else if (value !== null && typeof value === 'object') {
			Object.entries(value).forEach(([name, inner]) => {
				visit(name);
				visit(inner);
			});
		}
	};
	visit(input);
	found.delete('');
	return [...found].sort((a, b) => b.length - a.length);
}

/** A tool's answer with every given secret replaced in each of its texts, names and values alike. */
function withoutSecretsIn(value: unknown, replace: (text: string) => string): unknown {
	if (typeof value === 'string') return replace(value);
	if (Array.isArray(value)) return value.map((item) => withoutSecretsIn(item, replace));
	if (value !== null && typeof value === 'object') return withoutSecretsInObject(value, replace);
	return value;
}

/** An object's names and values, each text with every given secret replaced. */
function withoutSecretsInObject(
	value: object,
	replace: (text: string) => string,
): Record<string, unknown> {
	return Object.fromEntries(
		Object.entries(value).map(([name, item]) => [replace(name), withoutSecretsIn(item, replace)]),
	);
}

/**
 * Runs a tool; an error becomes one line (a ToolInputError's own, or a generic one). An answer or
 * an error may repeat an input, and an input may be a key an assistant was given elsewhere: every
 * key the input holds is replaced in the answer, and in an error line every secret value of the
 * fixtures too, before it is sent.
 */
export async function answer(
	reader: PortalReader,
	tool: string,
	input: unknown,
	work: () => Promise<object>,
) {
	const given = callersKeys(input);
	try {
		const done = await work();
		if (given.length === 0) return result(done);
		const { withoutSecrets } = await code.callMock();
		return result(withoutSecretsInObject(done, (text) => withoutSecrets(text, given)));
	} catch (error) {
		const line =
			error instanceof ToolInputError
				? error.message
				: `${tool}: the portal's sources could not be read (${error instanceof Error ? error.name : 'Error'}); see the server's log`;
		if (!(error instanceof ToolInputError)) console.error(error);
		const { secretsOf, withoutSecrets } = await code.callMock();
		let secrets: string[] = [];
		try {
			secrets = secretsOf(...(await reader.entries()));
		} catch (unreadable) {
			// Fixtures that do not load give no secrets to hide: the line then names files and fields
			// only. A fixture problem (a ToolInputError) is what the tool's own line says; any other
			// failure is logged here, with its cause.
			if (!(unreadable instanceof ToolInputError)) console.error(unreadable);
		}
		const every = [...new Set([...secrets, ...given])].sort((a, b) => b.length - a.length);
		throw new ToolInputError(withoutSecrets(line, every), { cause: error });
	}
}
