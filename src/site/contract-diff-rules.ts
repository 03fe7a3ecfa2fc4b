/**
 * api-smart-diff's OpenAPI 3 rules, with what only readers see classified as documentation
 * ("annotation" in the library's words) where the library has no rule and so leaves it
 * unclassified:
 * - a header's or a parameter's `example` and `examples` (the library has rules for a media
 *   type's examples and a schema's, none for these);
 * - everything inside an example, a description, a tag or any other field the library already
 *   classifies as documentation (it classifies the field, then nothing under it);
 * - `summary`, `title` and `externalDocs`, and any `x-` extension, on an object that has a
 *   documentation `description` (an operation, a response, a header, a parameter, a schema…).
 * Names the API's own maps hold (a header named `x-request-id`, a property named `example`) keep
 * the library's rules: only fields beside a documented `description` are touched.
 * A path item's `query` operation and its `additionalOperations` (OpenAPI 3.2) are operations
 * too, added, removed and changed as a GET is, where the library knows only 3.1's methods.
 * A media type's `itemSchema` (3.2's stream of items) is compared as its `schema` is, and a
 * parameter's `content.<type>.schema` (a `querystring` parameter's, say) as a parameter's
 * `schema` is, each told where it is (`contractAnnotateHook`), where the library has no rule for
 * either and leaves them unclassified.
 */
import {
	allAnnotation,
	contentChangeAnnotation,
	openApi3AnnotateHook,
	openapi3Rules,
	transformComapreRules,
	type AnnotateHook,
	type CompareRules,
	type CompareRulesFunc,
	type Diff,
} from 'api-smart-diff';

/** What a rule written as a function is given: the key, its path and its value. */
type RuleContext = Parameters<CompareRulesFunc>[0];

/** A documentation field, and everything inside it. */
const DOCUMENTATION: CompareRules = { $: allAnnotation, '/**': { $: allAnnotation } };

/** The fields of a documented object that only readers see, beside its `description`. */
const DOCUMENTATION_FIELDS = ['summary', 'title', 'example', 'examples', 'externalDocs'] as const;

/** Whether a key is an OpenAPI specification extension (`x-…`). */
export function isExtension(key: string | number): boolean {
	return typeof key === 'string' && key.startsWith('x-');
}

/** Whether a rule classifies every change as documentation. */
function isDocumentation(rule: unknown): rule is CompareRules {
	if (typeof rule !== 'object' || rule === null || !('$' in rule)) return false;
	const classify = rule.$;
	return Array.isArray(classify) && classify.every((type) => type === 'annotation');
}

/** A child rule of `rules` as it applies to one key, whether written as rules or as a function. */
function childRule(
	rule: CompareRules[`/${string}`] | undefined,
	context: RuleContext,
): CompareRules {
	if (rule === undefined) return {};
	return typeof rule === 'function' ? rule(context) : rule;
}

/** One node of the library's rules, with the documentation rules above added. */
function withDocumentation(node: CompareRules): CompareRules {
	const rules: CompareRules = { ...node };
	for (const [key, child] of Object.entries(node)) {
		if (!key.startsWith('/') || key === '/*' || key === '/**') continue;
		// A documentation field's parts are documentation too.
		if (isDocumentation(child) && !('/**' in child)) {
			rules[key as `/${string}`] = { ...child, '/**': DOCUMENTATION };
		}
	}
	if (!isDocumentation(node['/description'])) return rules;
	for (const field of DOCUMENTATION_FIELDS) {
		rules[`/${field}`] ??= DOCUMENTATION;
	}
	const anyKey = node['/*'];
	rules['/*'] = (context) => ({
		...childRule(anyKey, context),
		...(isExtension(context.key) ? DOCUMENTATION : {}),
	});
	return rules;
}

/**
 * One node of the library's rules with OpenAPI 3.2's schema places added: a media type's
 * `itemSchema`, ruled as its `schema` is at the same place (a response's rules in a response, a
 * request's in a request body), and a parameter's `content.<type>.schema` ruled as its `schema`.
 */
function withSchemaPlaces(node: CompareRules): CompareRules {
	const schema = node['/schema'];
	if (schema === undefined) return node;
	if ('/encoding' in node && !('/itemSchema' in node)) {
		return {
			...node,
			'/itemSchema': (context) =>
				childRule(schema, { ...context, path: [...context.path.slice(0, -1), 'schema'] }),
		};
	}
	if ('/in' in node && !('/content' in node)) {
		const parameterSchema: CompareRules = {
			'/*': {
				'/schema': (context) =>
					childRule(schema, { ...context, path: context.path.slice(0, -3).concat('schema') }),
			},
		};
		return { ...node, '/content': parameterSchema };
	}
	return node;
}

/** The methods a path item names as fields: 3.1's eight, and 3.2's `query`. */
const METHODS: readonly string[] = [
	'get',
	'put',
	'post',
	'delete',
	'options',
	'head',
	'patch',
	'trace',
	'query',
];

/** Whether a value is a list. */
function isList(value: unknown): value is readonly unknown[] {
	return Array.isArray(value);
}

/** Whether a value is an object with fields. */
function isFields(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A path item's operations as the library's rules compare them: its methods, 3.2's `query`
 * among them, and each of `additionalOperations` under its own name (`COPY`), beside the others.
 * The library's own transform knows only 3.1's eight methods, and gives any other field to each
 * operation as the path item's own (a `query` operation added read as a field of GET, HEAD and
 * OPTIONS). As in it, the path item's parameters and servers are added to each operation's, and
 * its other fields given to each operation that has none of its own.
 */
function operationsOf(item: unknown): unknown {
	if (!isFields(item)) return item;
	const { additionalOperations, ...fields } = item;
	const operations: Record<string, unknown> = {};
	const shared: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(fields)) {
		if (METHODS.includes(key)) operations[key] = value;
		else shared[key] = value;
	}
	if (isFields(additionalOperations)) {
		for (const [method, operation] of Object.entries(additionalOperations)) {
			if (!(method in fields)) operations[method] = operation;
		}
	}
	const { parameters, servers, ...others } = shared;
	if (Object.keys(shared).length === 0) return operations;
	const joined: Record<string, unknown> = {};
	for (const [method, operation] of Object.entries(operations)) {
		if (!isFields(operation)) continue;
		const each: Record<string, unknown> = { ...others, ...operation };
		for (const [field, list] of Object.entries({ parameters, servers })) {
			if (!isList(list)) continue;
			const own = operation[field];
			each[field] = isList(own) ? [...own, ...list] : list;
		}
		joined[method] = each;
	}
	return joined;
}

/** The rules with each path item's operations read as OpenAPI 3.2 names them (`operationsOf`). */
function withOperationsOf32(rules: CompareRules): CompareRules {
	const paths = rules['/paths'];
	const item = isFields(paths) ? paths['/*'] : undefined;
	if (!isFields(paths) || !isFields(item)) {
		throw new Error(
			"api-smart-diff's OpenAPI rules have no rule for a path item to read 3.2's operations with",
		);
	}
	const pathItem: CompareRules = {
		...item,
		transform: [(before, after) => [operationsOf(before), operationsOf(after)]],
	};
	return { ...rules, '/paths': { ...paths, '/*': pathItem } };
}

/** The rules the contract's changelog compares two versions of openapi.yaml with. */
export function contractDiffRules(): CompareRules {
	// openapi3Rules() with no options is what api-smart-diff's OpenAPI comparison uses by default.
	return withOperationsOf32(
		transformComapreRules(openapi3Rules(), (node) => withSchemaPlaces(withDocumentation(node))),
	);
}

/** What was done to a response's media type, in the library's words for a request body's. */
const DONE_TO_CONTENT: Record<string, string> = {
	add: '[Added] {text} to {target}',
	remove: '[Removed] {text} from {target}',
	replace: '[Replaced] {text} of {target}',
	rename: '[Renamed] {text} of {target}',
};

/**
 * A change to a response's media type, or to a field of it, in the library's words: it words them
 * as a request body's (`[Added] annotation (application/jsonl) to Request Body content
 * (content)`), its test for a response's place needing a `schema` below it.
 */
function responseContentWords({ action, path }: Diff): string | undefined {
	const [, , , responses, code, content, type] = path;
	if (responses !== 'responses' || content !== 'content' || type === undefined) return undefined;
	const key = path.at(-1);
	const text = key === type ? 'Content type' : `annotation (${String(key)})`;
	const target = `Response ${String(code)} content (${String(type)})`;
	return DONE_TO_CONTENT[action]?.replace('{text}', text).replace('{target}', target);
}

/**
 * The library's words for a change, with OpenAPI 3.2's schema places told as the library tells
 * their 3.1 neighbours: a change in a media type's `itemSchema` as one in its `schema`, in each
 * item (`[Replaced] type definition of \`name\` in each item of Response 200 content
 * (application/jsonl)`); one in a parameter's `content.<type>.schema` as one in its `schema`
 * (`… in querystring parameter \`controls\``); and a response's media type as the response's.
 */
export const contractAnnotateHook: AnnotateHook = (diff, context) => {
	const { path } = diff;
	const [, , , place] = path;
	const itemAt = place === 'responses' ? 7 : place === 'requestBody' ? 6 : -1;
	if (itemAt > 0 && path[itemAt] === 'itemSchema') {
		const schemaPath = path.map((step, at) => (at === itemAt ? 'schema' : step));
		const words = openApi3AnnotateHook({ ...diff, path: schemaPath }, context);
		return words.replace(
			/ in (Response \S+|Request Body) content \(/,
			' in each item of $1 content (',
		);
	}
	if (place === 'parameters' && path[5] === 'content' && path[7] === 'schema') {
		const schemaPath = [...path.slice(0, 5), ...path.slice(7)];
		return openApi3AnnotateHook({ ...diff, path: schemaPath }, context);
	}
	if (context.rules.annotate === contentChangeAnnotation) {
		const words = responseContentWords(diff);
		if (words !== undefined) return words;
	}
	return openApi3AnnotateHook(diff, context);
};
