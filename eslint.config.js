// @ts-check
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import astro from 'eslint-plugin-astro';
import globals from 'globals';
import tseslint from 'typescript-eslint';

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
			globals: { ...globals.browser, ...globals.node },
			parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
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
		files: ['**/*.astro', '**/*.mjs', '**/*.js', '**/*.cjs'],
		// Astro frontmatter and plain JS config files are outside the TypeScript project service.
		...tseslint.configs.disableTypeChecked,
	},
	{
		files: ['**/*.cjs'],
		// A CommonJS module, such as the faker module the mock hands to Prism, loads with require().
		languageOptions: { sourceType: 'commonjs' },
		rules: { '@typescript-eslint/no-require-imports': 'off' },
	},
	{
		files: ['**/*.ts'],
		ignores: ['tests/**'],
		rules: {
			// Tests import the portal, the mock and support/, never the other way round: the
			// benchmarks once reached into tests/support/, and support/ is where shared helpers go.
			'no-restricted-imports': [
				'error',
				{
					patterns: [
						{
							regex: '(^|/)tests/',
							message: 'Only tests import from tests/; move a shared helper to support/.',
						},
					],
				},
			],
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
