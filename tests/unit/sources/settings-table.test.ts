/**
 * The one table of settings: every environment variable the code reads is in it (so on the
 * settings reference and in `--help`), and each entry is one a reader can use.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SETTING_LIST, SETTINGS } from '../../../src/sources/settings.ts';
import {
	COMMANDS,
	flagsOf,
	readCommandLine,
	type FlagCommand,
} from '../../../src/sources/command-line.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/**
 * Variables the code reads that are not the portal's settings: the system's and other tools'
 * (PATH, colours, git's prompts, Node's compile cache, Kubernetes' downward API), and API_KEY,
 * which only the code samples shown to readers read.
 */
const NOT_SETTINGS = new Set([
	'PATH',
	'FORCE_COLOR',
	'GIT_TERMINAL_PROMPT',
	'GIT_PAGER',
	'API_KEY',
	'NODE_COMPILE_CACHE',
	'NODE_DISABLE_COMPILE_CACHE',
	'POD_NAMESPACE',
	// Astro's own: whether a page renders in the dev server (import.meta.env.DEV).
	'DEV',
	// Ours, defined by the build for the pages (src/integrations/built-pages-policy.ts), never read
	// from the environment: whether `astro build` renders the page.
	'PORTAL_BUILT_PAGES',
	// Ours, set by `npm run build` (scripts/lib/astro-build.ts) for the `astro build` it runs, never
	// by a person: the file where Astro records the folder it wrote, for the index after it.
	'PORTAL_SEARCH_INDEX_AFTER',
	// Build arguments of the Containerfiles, given by `npm run image`, not by a person.
	'BASE_IMAGE',
	'CREATED',
	'REVISION',
	'SOURCE',
	'VERSION',
]);

/** The environment variables a source file reads, by the ways our code and scripts read them. */
export function variablesRead(text: string, file: string): string[] {
	const found = new Set<string>();
	const patterns =
		file.endsWith('.sh') || file.includes('Containerfile')
			? [/\$\{([A-Z][A-Z0-9_]+)/g, /\$([A-Z][A-Z0-9_]+)/g, /^ENV\s+([A-Z][A-Z0-9_]+)=/gm]
			: file.endsWith('.yaml')
				? [/-\s+name:\s+([A-Z][A-Z0-9_]+)\s*$/gm]
				: [
						/\benv(?:\?\.|\.)([A-Z][A-Z0-9_]+)/g,
						/\benv\??\.?\[\s*['"`]([A-Z][A-Z0-9_]+)['"`]\s*\]/g,
						/\bprocess\.env\s*\[\s*['"`]([A-Z][A-Z0-9_]+)['"`]\s*\]/g,
					];
	for (const pattern of patterns) {
		for (const match of text.matchAll(pattern)) if (match[1]) found.add(match[1]);
	}
	// A shell script's own variables, which it sets itself, are not read from the environment.
	if (file.endsWith('.sh')) {
		for (const match of text.matchAll(/^\s*([A-Z][A-Z0-9_]+)=/gm)) found.delete(match[1] ?? '');
	}
	return [...found];
}

/** Every file under a folder, without node_modules. */
function filesUnder(folder: string): string[] {
	return readdirSync(folder).flatMap((name) => {
		const file = path.join(folder, name);
		if (name === 'node_modules') return [];
		return statSync(file).isDirectory() ? filesUnder(file) : [file];
	});
}

/** The code that runs for a person: the servers, the commands, the build and the images. */
function codeFiles(): string[] {
	const code = ['mock', 'mcp', 'scripts', 'src'].flatMap((folder) =>
		filesUnder(path.join(ROOT, folder)).filter((file) =>
			/\.(?:ts|mts|cts|js|mjs|cjs|astro)$/.test(file),
		),
	);
	const deploy = filesUnder(path.join(ROOT, 'deploy')).filter((file) =>
		/(?:\.sh|Containerfile|\.yaml)$/.test(file),
	);
	return [...code, ...deploy, path.join(ROOT, 'astro.config.mjs')];
}

describe('every setting the code reads is in the table', () => {
	it('finds the variables a file reads, whichever way it reads them', () => {
		expect(
			variablesRead(
				"const a = process.env['MOCK_PORT'] ?? env.PORTAL_URL; env['CONFORM_KEYS']; process.env[`X_Y`]",
				'a.ts',
			).sort(),
		).toEqual(['CONFORM_KEYS', 'MOCK_PORT', 'PORTAL_URL', 'X_Y']);
		expect(variablesRead('port=${PORTAL_PORT:-8080}\n[ -n "$MOCK_UPSTREAM" ]', 'start.sh')).toEqual(
			['PORTAL_PORT', 'MOCK_UPSTREAM'],
		);
		expect(variablesRead('URL_PATH=\'(/[a-z]+)*\'\ngrep "$URL_PATH" "$MOCK_URL"', 'a.sh')).toEqual([
			'MOCK_URL',
		]);
		expect(variablesRead('ENV PORTAL_PORT=8080 \\\n', 'web.Containerfile')).toEqual([
			'PORTAL_PORT',
		]);
		expect(
			variablesRead('          env:\n            - name: MOCK_WORKERS\n', 'mock.yaml'),
		).toEqual(['MOCK_WORKERS']);
	});

	it('a variable a command reads is on the settings reference: none is left out of the table', () => {
		const missing: string[] = [];
		for (const file of codeFiles()) {
			if (file === path.join(ROOT, 'src/sources/settings.ts')) continue;
			for (const name of variablesRead(readFileSync(file, 'utf8'), file)) {
				if (!(name in SETTINGS) && !NOT_SETTINGS.has(name))
					missing.push(`${name} (${path.relative(ROOT, file)})`);
			}
		}
		expect(missing).toEqual([]);
	});

	it('the settings module reads no variable outside its table', () => {
		const text = readFileSync(path.join(ROOT, 'src/sources/settings.ts'), 'utf8');
		const outside = variablesRead(text, 'settings.ts').filter((name) => !(name in SETTINGS));
		expect(outside).toEqual([]);
	});
});

describe('each entry of the table', () => {
	it('says in one short line what it changes, and which commands read it', () => {
		for (const setting of SETTING_LIST) {
			expect(setting.description, setting.name).not.toContain('\n');
			expect(setting.description.length, setting.name).toBeLessThanOrEqual(110);
			expect(setting.commands.length, setting.name).toBeGreaterThan(0);
		}
	});

	it('has a default to show, or says what happens when it is not set', () => {
		for (const setting of SETTING_LIST) {
			const unset = setting.schema.safeParse(undefined);
			const hasDefault = unset.success && unset.data !== undefined;
			expect(hasDefault || setting.unset !== undefined, setting.name).toBe(true);
		}
	});

	it('a flag means one setting on each command', () => {
		for (const command of Object.keys(COMMANDS) as FlagCommand[]) {
			const flags = flagsOf(command).map((entry) => entry.flag);
			expect(new Set(flags).size, command).toBe(flags.length);
			expect(flags, command).not.toContain('help');
			expect(flags, command).not.toContain('version');
		}
	});
});

describe('the example each --help shows', () => {
	it.each(Object.keys(COMMANDS) as FlagCommand[])(
		'%s: the example parses as a command line the command runs',
		(command) => {
			const { example } = COMMANDS[command];
			const args = example.split(' -- ')[1]?.split(' ') ?? [];
			expect(readCommandLine(command, args).kind).toBe('run');
		},
	);
});

describe('readCommandLine', () => {
	it('sets the variable of each flag given, and only those', () => {
		expect(readCommandLine('mock', ['--port', '4011', '--log=json'])).toEqual({
			kind: 'run',
			variables: { MOCK_PORT: '4011', MOCK_LOG: 'json' },
			dev: false,
		});
		expect(readCommandLine('start', ['--port', '4400', '--mock-port', '4411'])).toMatchObject({
			variables: { PORTAL_PORT: '4400', MOCK_PORT: '4411' },
		});
	});

	it('refuses a flag with no value, a switch with one, and a stray argument, naming them', () => {
		expect(readCommandLine('mock', ['--port'])).toMatchObject({
			kind: 'refused',
			problem: '--port needs a value: --port <port>',
		});
		expect(readCommandLine('mock', ['--help=yes'])).toMatchObject({
			kind: 'refused',
			problem: '--help takes no value',
		});
		expect(readCommandLine('mock', ['openapi.yaml'])).toMatchObject({
			kind: 'refused',
			problem: 'unexpected argument "openapi.yaml" (flags start with --)',
		});
		expect(readCommandLine('mock', ['--port', '4011', '--bogus'])).toMatchObject({
			kind: 'refused',
			problem: 'unknown flag --bogus',
		});
	});

	it('names the flag, not the variable, when a flag value is wrong', () => {
		expect(readCommandLine('mock', ['--port', '0'])).toMatchObject({
			kind: 'refused',
			problem: '--port: expected a TCP port number from 1 to 65535',
		});
		expect(readCommandLine('mock', ['--views', ''])).toMatchObject({
			kind: 'refused',
			problem: '--views: expected <folder>, not an empty value',
		});
	});
});
