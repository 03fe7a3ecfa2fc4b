/**
 * What Prism gets in place of a module it imports, from which of its files, and the file in mock/
 * that stands in for it (prism-imports.ts says why each): one list for the resolve hook, when the
 * mock runs from its sources (prism-imports.ts), and for the bundle (bundle.ts). A stand-in loads
 * the real module from Prism's main file, which imports none of them, so it gets the real one.
 */
export const STAND_INS: readonly { specifier: string; importer: string; file: string }[] = [
	{
		specifier: '@faker-js/faker',
		importer: '/@stoplight/prism-http/dist/mocker/generator/JSONSchema.js',
		file: 'faker-english.cjs',
	},
	{
		specifier: '@stoplight/http-spec/postman/operation',
		importer: '/@stoplight/prism-http/dist/utils/operations.js',
		file: 'postman-none.cjs',
	},
	{
		specifier: '@stoplight/json-schema-merge-allof',
		importer: '/@stoplight/prism-http/dist/validator/validators/body.js',
		file: 'merge-allof-later.cjs',
	},
	{
		specifier: 'node-fetch',
		importer: '/@stoplight/prism-http/dist/forwarder/index.js',
		file: 'node-fetch-later.cjs',
	},
	{
		specifier: 'node-fetch',
		importer: '/@stoplight/prism-http/dist/mocker/callback/callbacks.js',
		file: 'node-fetch-later.cjs',
	},
	{
		specifier: 'isomorphic-fetch',
		importer: '/@stoplight/json-schema-ref-parser/lib/resolvers/http.js',
		file: 'global-fetch.cjs',
	},
];
