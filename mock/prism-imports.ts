/**
 * What Prism loads, cut to what the mock uses, through a resolve hook that applies to Prism's
 * own imports only; the answers are the same, and the start is faster:
 * - Prism's JSON Schema generator loads `@faker-js/faker`, whose main entry builds every one of
 *   its 50-odd locales: about 1 s of CPU at each mock start (0.2 s for English alone). Prism only
 *   ever uses the English faker (`faker.default`, locale `en`), and only to generate a body, so
 *   it gets a module that loads the English faker in the same shape on first use
 *   (`faker-english.cjs`).
 * - Prism's reading of a document (`getHttpOperationsFromSpec`) loads the Postman collection
 *   reader beside the OpenAPI ones, about 250 modules (postman-collection, with a faker of its
 *   own). The mock gives Prism the OpenAPI contract only, so it gets a reader that refuses a
 *   Postman collection (`postman-none.cjs`).
 * - Prism's body validator loads an allOf merger that only request validation calls, which the
 *   mock turns off; it gets one that loads the merger on first use (`merge-allof-later.cjs`).
 * - Prism's forwarder and its callbacks load node-fetch, which the mock never has Prism call; they
 *   get a fetch that loads it on first use (`node-fetch-later.cjs`). The reference resolver
 *   Prism reads the contract with loads isomorphic-fetch only to set a global fetch where there
 *   is none; Node 24 has one, so it gets Node's (`global-fetch.cjs`).
 * Import it before anything imports Prism.
 */
import { registerHooks } from 'node:module';

/** What Prism gets in place of a module it imports, by the module it imports. */
const STAND_INS = new Map([
	['@faker-js/faker', new URL('./faker-english.cjs', import.meta.url).href],
	['@stoplight/http-spec/postman/operation', new URL('./postman-none.cjs', import.meta.url).href],
	['@stoplight/json-schema-merge-allof', new URL('./merge-allof-later.cjs', import.meta.url).href],
	['node-fetch', new URL('./node-fetch-later.cjs', import.meta.url).href],
	['isomorphic-fetch', new URL('./global-fetch.cjs', import.meta.url).href],
]);

/**
 * Prism's files that import them. The stand-ins load the real modules from Prism's main file,
 * which is none of these, so they get the real ones.
 */
const IMPORTERS = [
	'/@stoplight/prism-http/dist/mocker/generator/JSONSchema.js',
	'/@stoplight/prism-http/dist/utils/operations.js',
	'/@stoplight/prism-http/dist/validator/validators/body.js',
	'/@stoplight/prism-http/dist/forwarder/index.js',
	'/@stoplight/prism-http/dist/mocker/callback/callbacks.js',
	'/@stoplight/json-schema-ref-parser/lib/resolvers/http.js',
];

registerHooks({
	resolve(specifier, context, nextResolve) {
		const standIn = STAND_INS.get(specifier);
		const parent = context.parentURL;
		if (standIn && parent && IMPORTERS.some((importer) => parent.endsWith(importer))) {
			return { url: standIn, shortCircuit: true };
		}
		return nextResolve(specifier, context);
	},
});
