/**
 * The published contract as text (/openapi.yaml, /openapi.json, /openapi-3.1.json): the text
 * `yaml`'s `stringify` or `JSON.stringify` writes for the whole composed document, written in
 * parts, with the views' examples a few hundred at a time. Written whole, the text was made at once
 * beside everything else the build holds: at 10,000 views `yaml` made a node for every value
 * (215 MB), and the 20 MB of JSON took 100 MB between the string and its bytes.
 */
import { stringify } from 'yaml';
import { EXAMPLES_PATH } from '../sources/contract.ts';
import { isMapping } from '../sources/mapping.ts';

/** How the contract is written as YAML: no line folded, whatever its length. */
const YAML_OPTIONS = { lineWidth: 0 } as const;

/** How many views' examples are written at once. */
const EXAMPLES_AT_ONCE = 500;

/** The key that stands in for the examples while the rest of the document is written. */
const STAND_IN = 'console-portal-views-examples-stand-in';

/**
 * How one format writes a document, and some of its examples in their place. Lines are split at
 * line feeds only: a name may hold U+2028 or U+2029, which both formats write as they are, and
 * which a regular expression's `^` would take for the start of a line.
 */
interface Format {
	/** The whole text of a value, as the format writes a document. */
	whole(value: Record<string, unknown>): string;
	/** The stand-in's line, as the format writes `{ [STAND_IN]: null }` nested: its indent first. */
	standIn: RegExp;
	/**
	 * Some of the examples, as the format writes them in place of the stand-in at `indent`; `more`
	 * says others follow them.
	 */
	some(examples: Record<string, unknown>, indent: string, more: boolean): string;
}

const YAML: Format = {
	whole: (value) => stringify(value, YAML_OPTIONS),
	standIn: new RegExp(`(?<=^|\\n)( *)${STAND_IN}: null\\n`),
	// A mapping's lines, each that is not empty indented as deep as the examples are.
	some: (examples, indent) =>
		stringify(examples, YAML_OPTIONS).replace(/(^|\n)(?=[^\n])/g, `$1${indent}`),
};

const JSON_FORMAT: Format = {
	whole: (value) => `${JSON.stringify(value, null, 2)}\n`,
	standIn: new RegExp(`(?<=^|\\n)( *)"${STAND_IN}": null\\n`),
	// An object's members without its braces (JSON writes no empty line), as deep as the examples
	// are, and a comma after them when more follow.
	some: (examples, indent, more) =>
		`${JSON.stringify(examples, null, 2)
			.slice(2, -2)
			.replace(/(^|\n) {2}/g, `$1${indent}`)}${more ? ',' : ''}\n`,
};

/**
 * The mapping that holds the views' examples of a composed document, if it is where they go. Not
 * `examplesHolderOf`, which names a contract that has no such place: a composed one always has.
 */
function examplesHolder(document: Record<string, unknown>): Record<string, unknown> | undefined {
	let current: unknown = document;
	for (const step of EXAMPLES_PATH.slice(0, -1)) {
		current = isMapping(current) ? current[step] : undefined;
	}
	return isMapping(current) ? current : undefined;
}

/**
 * The document written with the stand-in in place of its views' examples. The examples are
 * swapped for it in place and back before anything else runs, not copied around it: the mappings
 * on their way may be anchored and aliased elsewhere in the contract, as they were written.
 */
function skeletonOf(
	document: Record<string, unknown>,
	holder: Record<string, unknown>,
	format: Format,
): string {
	const examples = holder['examples'];
	holder['examples'] = { [STAND_IN]: null };
	try {
		return format.whole(document);
	} finally {
		holder['examples'] = examples;
	}
}

/** The parts of a composed document's text in `format`. */
function* partsOf(document: Record<string, unknown>, format: Format): Generator<string> {
	const holder = examplesHolder(document);
	const examples = holder?.['examples'];
	const entries = isMapping(examples) ? Object.entries(examples) : [];
	const skeleton =
		holder && entries.length > EXAMPLES_AT_ONCE ? skeletonOf(document, holder, format) : '';
	const line = format.standIn.exec(skeleton);
	// Written whole when the stand-in is not on a line of its own, once: the contract's own text
	// might hold its name.
	if (!line || skeleton.split(STAND_IN).length !== 2) {
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
	return new ReadableStream<Uint8Array>({
		pull(controller) {
			const next = parts.next();
			if (next.done === true) controller.close();
			else controller.enqueue(encoder.encode(next.value));
		},
	});
}
