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
 */
import {
	allAnnotation,
	openapi3Rules,
	transformComapreRules,
	type CompareRules,
	type CompareRulesFunc,
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

/** The rules the contract's changelog compares two versions of openapi.yaml with. */
export function contractDiffRules(): CompareRules {
	// openapi3Rules() with no options is what api-smart-diff's OpenAPI comparison uses by default.
	return transformComapreRules(openapi3Rules(), withDocumentation);
}
