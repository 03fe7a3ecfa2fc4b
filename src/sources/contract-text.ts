/**
 * The published contract as text (/openapi.yaml, /openapi.json, /openapi-3.1.json): the text
 * `yaml`'s `stringify` or `JSON.stringify` writes for the whole composed document, written in
 * parts, with the views' examples a few hundred at a time. Written whole, the text was made at once
 * beside everything else the build holds: at 10,000 views `yaml` made a node for every value
 * (215 MB), and the 20 MB of JSON took 100 MB between the string and its bytes.
 */
import { stringify } from 'yaml';
import { EXAMPLES_PATH } from './contract.ts';
import { isMapping } from './mapping.ts';

/** How the contract is written as YAML: no line folded, whatever its length. */
const YAML_OPTIONS = { lineWidth: 0 } as const;

/** How many views' examples are written at once. */
const EXAMPLES_AT_ONCE = 500;

/** The key that stands in for the examples while the rest of the document is written. */
const STAND_IN = 'console-portal-views-examples-stand-in';

/** How one format writes a mapping, and finds the stand-in's line in what it wrote. */
interface Format {
	/** The whole text of a value, as the format writes a document. */
	whole(value: Record<string, unknown>): string;
	/** The stand-in's line, as the format writes `{ [STAND_IN]: null }` nested. */
	standIn: RegExp;
	/**
	 * Some of the examples, as the format writes them in place of the stand-in at `indent`; `more`
	 * says others follow them.
	 */
	some(examples: Record<string, unknown>, indent: string, more: boolean): string;
}

const YAML: Format = {
	whole: (value) => stringify(value, YAML_OPTIONS),
	standIn: new RegExp(`^( *)${STAND_IN}: null\\n`, 'm'),
	// A mapping's lines, each that is not empty indented as deep as the examples are.
	some: (examples, indent) => stringify(examples, YAML_OPTIONS).replace(/^(?=.)/gm, indent),
};

const JSON_FORMAT: Format = {
	whole: (value) => `${JSON.stringify(value, null, 2)}\n`,
	standIn: new RegExp(`^( *)"${STAND_IN}": null\\n`, 'm'),
	// An object's members without its braces (JSON writes no empty line), as deep as the examples
	// are, and a comma after them when more follow.
	some: (examples, indent, more) =>
		`${JSON.stringify(examples, null, 2)
			.slice(2, -2)
			.replace(/^ {2}/gm, indent)}${more ? ',' : ''}\n`,
};

/** A copy of `document` with `value` at `steps`: only the mappings on the way are copied. */
function replacedAt(
	document: Record<string, unknown>,
	steps: readonly string[],
	value: unknown,
): Record<string, unknown> {
	const [step, ...rest] = steps;
	if (step === undefined) return document;
	const next = document[step];
	return {
		...document,
		[step]: rest.length === 0 || !isMapping(next) ? value : replacedAt(next, rest, value),
	};
}

/** The views' examples of a composed document, if it has them where they go. */
function examplesOf(document: Record<string, unknown>): Record<string, unknown> | undefined {
	let current: unknown = document;
	for (const step of EXAMPLES_PATH) current = isMapping(current) ? current[step] : undefined;
	return isMapping(current) ? current : undefined;
}

/** The parts of a composed document's text in `format`. */
function* partsOf(document: Record<string, unknown>, format: Format): Generator<string> {
	const examples = examplesOf(document);
	const entries = examples ? Object.entries(examples) : [];
	const skeleton =
		entries.length > EXAMPLES_AT_ONCE
			? format.whole(replacedAt(document, EXAMPLES_PATH, { [STAND_IN]: null }))
			: '';
	const line = format.standIn.exec(skeleton);
	if (!line) {
		yield format.whole(document);
		return;
	}
	const indent = line[1] ?? '';
	yield skeleton.slice(0, line.index);
	for (let start = 0; start < entries.length; start += EXAMPLES_AT_ONCE) {
		const end = start + EXAMPLES_AT_ONCE;
		yield format.some(Object.fromEntries(entries.slice(start, end)), indent, end < entries.length);
	}
	yield skeleton.slice(line.index + line[0].length);
}

/**
 * `document`, a composed contract (`composeContract`), as YAML in parts: together the text of
 * `stringify(document, { lineWidth: 0 })`.
 */
export function contractYamlParts(document: Record<string, unknown>): Generator<string> {
	return partsOf(document, YAML);
}

/**
 * `document`, a composed contract, as JSON in parts: together the text of
 * `JSON.stringify(document, null, 2)` and a line break.
 */
export function contractJsonParts(document: Record<string, unknown>): Generator<string> {
	return partsOf(document, JSON_FORMAT);
}

/** Parts of text as a body's bytes, each part made when the body is read that far. */
export function textBody(parts: Iterator<string>): ReadableStream<Uint8Array> {
	const encoder = new TextEncoder();
	return new ReadableStream({
		pull(controller) {
			const next = parts.next();
			if (next.done === true) controller.close();
			else controller.enqueue(encoder.encode(next.value));
		},
	});
}
