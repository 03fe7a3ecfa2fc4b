// @ts-check
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import astro from 'eslint-plugin-astro';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { localRules } from './eslint-rules.js';

/** Folders whose code runs only in Node: the readers, the build, the mock and the tooling. */
const NODE_FOLDERS = [
	'src/sources',
	'src/site',
	'src/integrations',
	'mock',
	'mcp',
	'scripts',
	'support',
	'tests',
	'bench',
];

/** The tooling around the portal: nothing in the portal or the mock may import it. */
const TOOLING = ['tests', 'support', 'scripts', 'bench'];

/** The files that render pages: routes, components and layouts, at the top of the imports. */
const PAGES = ['src/pages', 'src/components', 'src/layouts', 'src/content.config.ts'];

export default defineConfig(
	{
		ignores: [
			'dist/',
			'.astro/',
			'node_modules/',
			'bench/.work/',
			'bench/tools/',
			'bench/results/',
			'tests/mutation/node_modules/',
			'reports/',
			'.stryker-tmp/',
		],
	},
	js.configs.recommended,
	...tseslint.configs.recommendedTypeChecked,
	...astro.configs.recommended,
	{
		languageOptions: {
			parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
		},
		plugins: { 'import-x': importX },
		settings: {
			// Every import names its file with its extension, so Node's own resolution finds it; the
			// boundary and cycle rules below need each import resolved to a path.
			'import-x/resolver-next': [createNodeResolver()],
			// The cycle rule reads the files an import reaches; ours are TypeScript as well as JavaScript.
			'import-x/extensions': ['.ts', '.js', '.mjs', '.cjs'],
		},
	},
	// Globals follow where the code runs, so that no-undef (on for TypeScript too, below) makes a
	// name from the wrong runtime an error: browser globals only in src/client, Node's only in the
	// Node folders and the config files beside them. src/schemas and src/shared get ES built-ins
	// alone. .astro files keep eslint-plugin-astro's globals: Node's in the frontmatter (it runs at
	// build time), the browser's in <script>.
	{
		files: ['src/client/**'],
		languageOptions: { globals: globals.browser },
	},
	{
		files: [
			...NODE_FOLDERS.map((folder) => `${folder}/**`),
			'src/pages/**/*.ts',
			'src/content.config.ts',
			'*.{js,mjs,cjs,ts}',
		],
		// `NodeJS` is the namespace of Node's types (NodeJS.ErrnoException…), a name like the others.
		languageOptions: { globals: { ...globals.node, NodeJS: 'readonly' } },
	},
	{
		files: ['tests/**', 'bench/**'],
		// Tests and benchmarks drive Chromium: the functions they hand to page.evaluate run in the page.
		languageOptions: { globals: globals.browser },
	},
	{
		files: ['**/*.ts'],
		rules: {
			// typescript-eslint turns no-undef off because the compiler checks names, but the compiler
			// here sees Node's and the browser's types in every file (one program holds them all). The
			// per-folder globals above are what tell a browser module using `process`, or a Node module
			// using `document`, so the rule is back on; types and classes that TypeScript's own library
			// declares (URL, Response, HTMLElement…) stay known everywhere.
			'no-undef': 'error',
		},
	},
	{
		rules: {
			// A leading underscore marks a value taken out on purpose (e.g. dropped by destructuring).
			'@typescript-eslint/no-unused-vars': [
				'error',
				{ varsIgnorePattern: '^_', argsIgnorePattern: '^_', ignoreRestSiblings: true },
			],
		},
	},
	{
		files: ['**/*.astro', '**/*.astro/*.{js,ts}', '**/*.mjs', '**/*.js', '**/*.cjs'],
		// Astro frontmatter, the <script> blocks eslint-plugin-astro lints as files of their own, and
		// plain JS config files are outside the TypeScript project service. (A <script> block given
		// the project service failed to parse, unseen, so none of its rules ran.)
		...tseslint.configs.disableTypeChecked,
	},
	{
		files: ['**/*.cjs'],
		// A CommonJS module, such as the faker module the mock hands to Prism, loads with require().
		languageOptions: { sourceType: 'commonjs' },
		rules: { '@typescript-eslint/no-require-imports': 'off' },
	},
	{
		files: ['**/*.{ts,astro,js,mjs,cjs}'],
		rules: {
			// The boundaries between folders, by where their code runs; each import is resolved to its
			// file, so a relative path of any depth is caught. Imports run one way: src/schemas, then
			// src/shared, src/sources, src/site, src/integrations, then the pages; src/client (the
			// browser) and mock/ take from the lower folders only; the tooling imports the portal and
			// never the other way round. src/schemas and src/shared have their own rules below.
			'import-x/no-restricted-paths': [
				'error',
				{
					basePath: import.meta.dirname,
					zones: [
						{
							target: ['src', 'mock', 'scripts', 'support', 'bench', './*.{js,mjs,cjs,ts}'],
							from: 'tests',
							// The benchmarks once reached into tests/support/; shared helpers live in support/.
							message: 'Only tests import from tests/; move a shared helper to support/.',
						},
						{
							target: 'src',
							from: ['mock', 'mcp', ...TOOLING.filter((folder) => folder !== 'tests')],
							message:
								'The portal never imports the mock, the MCP server or the tooling; they import the portal.',
						},
						{
							target: 'src/client',
							from: ['src/sources', 'src/site', 'src/integrations', ...PAGES],
							message:
								'src/client runs in the browser: it may import src/shared and src/schemas, never Node-only code or the pages.',
						},
						{
							target: 'src/shared',
							from: ['src/sources', 'src/site', 'src/integrations', 'src/client', ...PAGES],
							message:
								'src/shared runs in the build, the mock and the browser: it may import only src/schemas and itself.',
						},
						{
							target: 'src/sources',
							from: ['src/site', 'src/integrations', 'src/client', ...PAGES],
							message:
								'src/sources reads the inputs for the build and the mock: it may import src/shared and src/schemas only.',
						},
						{
							target: 'src/site',
							from: ['src/integrations', 'src/client', ...PAGES],
							message:
								'src/site is page data: it may import src/sources, src/shared and src/schemas; code the browser shares goes in src/shared.',
						},
						{
							target: 'src/integrations',
							from: ['src/client', ...PAGES],
							message:
								'src/integrations runs in the build: it may not import the browser elements or the pages.',
						},
						{
							target: 'mock',
							from: ['src/site', 'src/integrations', 'src/client', ...PAGES, ...TOOLING],
							message:
								'The mock may import src/sources, src/shared and src/schemas: it serves no pages and runs no tooling.',
						},
						{
							target: 'mcp',
							from: ['src/client', 'src/integrations', ...PAGES, 'mock', ...TOOLING],
							// The MCP server has a room of its own, as the mock has: it reads through src/sources
							// and answers from src/site's projections. What it shares with the browser (the
							// search's filters, the contract's check) lives in src/shared, so that no browser
							// module is loaded in Node and the browser's code can change without breaking it.
							message:
								'The MCP server may import src/sources, src/site, src/shared and src/schemas, never src/client: code it shares with the browser goes in src/shared. It serves no pages and runs neither the mock nor the tooling.',
						},
					],
				},
			],
		},
	},
	{
		files: ['src/client/**', 'src/shared/**', '**/*.astro/*.{js,ts}'],
		rules: {
			// Browser code (src/client and the <script> of .astro files) and code shared with the
			// browser (src/shared) must not import a Node built-in; it would not load in a page.
			'import-x/no-nodejs-modules': 'error',
		},
	},
	{
		files: ['**/*.astro/*.{js,ts}'],
		rules: {
			// A component's <script> runs in the browser, as src/client does, though its file lies among
			// the components; no-restricted-paths sees only the .astro file, so its imports are matched
			// by name here.
			'no-restricted-imports': [
				'error',
				{
					patterns: [
						{
							regex: '(^|/)(sources|site|integrations|mock|scripts|support)/',
							message:
								'A <script> runs in the browser: it may import src/client, src/shared and src/schemas, never Node-only code.',
						},
					],
				},
			],
		},
	},
	{
		files: ['src/shared/**'],
		rules: {
			// Code shared by the build, the mock and the browser takes only pure packages: zod, for
			// the types of src/schemas. Add another pure package here by name.
			'no-restricted-imports': [
				'error',
				{
					patterns: [
						{
							regex: '^(?!\\.|zod(/|$))',
							message:
								'src/shared may import only src/schemas, src/shared and pure packages (zod).',
						},
					],
				},
			],
		},
	},
	{
		files: ['src/schemas/**'],
		rules: {
			// The schemas are the single truth imported by everything else: zod and each other only.
			'no-restricted-imports': [
				'error',
				{
					patterns: [
						{
							regex: '^(?!zod(/|$)|\\./)',
							message: 'src/schemas may import only zod and other files of src/schemas.',
						},
					],
				},
			],
		},
	},
	{
		files: ['**/*.{ts,astro,js,mjs,cjs}'],
		// The project's own rules (eslint-rules.js), for what the style guide asks and no installed
		// rule checks.
		plugins: { local: localRules },
		rules: {
			// Imports never run in a circle: a module that needs another's part moves that part to a
			// third module both import. Type-only imports count too (two modules that need each other's
			// types cannot be read or moved apart), and import-x/no-cycle, which this replaces, skips
			// them with no option to count them. Only our own files are followed, not packages.
			'local/no-import-cycle': 'error',
			// A catch handles a named error or says in a comment why nothing is lost: an empty or silent
			// `catch {}` once hid a mock bundle that could not be made. no-empty takes any comment but
			// lets a catch with code and no word pass; this rule asks for the word.
			'local/explained-catch': 'error',
		},
	},
	{
		files: ['tests/**/*.ts'],
		rules: {
			// Tests assert on values they just checked for presence; a non-null assertion reads clearer there.
			'@typescript-eslint/no-non-null-assertion': 'off',
		},
	},
);
