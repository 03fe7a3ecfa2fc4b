/**
 * The command lines of `npm start`, `npm run dev`, `npm run mock`, `npm run conform` and
 * `npm run mcp`: `--help`, `--version`, and a flag for each setting people change often, read
 * from the one table of settings (settings.ts). A flag wins over its environment variable, which
 * wins over the default: the entry writes each flag given into its variable before anything reads
 * the settings, so the processes it starts (the build, the mock's workers) see it too.
 * This module loads no server: `--help` answers in the time Node takes to start.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { SETTING_LIST, type Command, type Setting, type SettingName } from './settings.ts';

/** A command that takes flags. */
export type FlagCommand = 'start' | 'dev' | 'mock' | 'conform' | 'mcp';

/** How a command is run, what it does, and one example, as its `--help` shows them. */
export interface CommandWords {
	/** As a person types it: `npm run mock`. */
	readonly run: string;
	/** One line: what it does. */
	readonly summary: string;
	/** One command line, run as shown. */
	readonly example: string;
}

/** The commands that take flags. */
export const COMMANDS: Readonly<Record<FlagCommand, CommandWords>> = {
	start: {
		run: 'npm start',
		summary: 'builds the portal and serves it beside the live mock, and prints both addresses.',
		example: 'npm start -- --port 4400 --mock-port 4411',
	},
	dev: {
		run: 'npm run dev',
		summary: "Astro's dev server (pages reload as you edit) beside the live mock.",
		example: 'npm run dev -- --views content/views --log off',
	},
	mock: {
		run: 'npm run mock',
		summary:
			'the live mock of GET /api/v2/users, following edits to the fixtures and the contract.',
		example: 'npm run mock -- --port 4011 --log json',
	},
	conform: {
		run: 'npm run conform',
		summary:
			'checks a real console against the contract; keys in CONFORM_KEYS or CONFORM_KEYS_FILE.',
		example: 'npm run conform -- --base-url https://console.intranet.example --junit conform.xml',
	},
	mcp: {
		run: 'npm run mcp',
		summary:
			'the MCP server over stdio, for assistants: the portal, the mock and the access review.',
		example: 'npm run mcp -- --mock-port 4011',
	},
};

/** Where the settings reference is served in the portal. */
export const SETTINGS_PAGE = '/docs/settings/';

/** A flag of a command and the setting it sets. */
export interface Flag {
	/** The flag's name without its dashes: `port`. */
	readonly flag: string;
	readonly setting: Setting & { readonly name: SettingName };
}

/** The flags a command takes, in the table's order. */
export function flagsOf(command: FlagCommand): readonly Flag[] {
	return SETTING_LIST.flatMap((setting) => {
		const flag = setting.flagOn?.[command] ?? setting.flag;
		return flag !== undefined && setting.commands.includes(command) ? [{ flag, setting }] : [];
	});
}

/** What a command line asks. */
export type CommandLine =
	| { kind: 'help' }
	| { kind: 'version' }
	/** Refused: exit 2 with the problem, which names the flag, and the usage line. */
	| { kind: 'refused'; problem: string }
	/** Run, with these variables set from the flags given; `dev` for `scripts/start.ts --dev`. */
	| { kind: 'run'; variables: Partial<Record<SettingName, string>>; dev: boolean };

/** The switches every command takes, and `--dev` of scripts/start.ts. */
const SWITCHES = ['help', 'version'];

/** Reads a command line (the arguments after the script); never exits, never sets a variable. */
export function readCommandLine(command: FlagCommand, args: readonly string[]): CommandLine {
	const flags = flagsOf(command);
	const switches = command === 'start' || command === 'dev' ? [...SWITCHES, 'dev'] : SWITCHES;
	const options: Record<string, { type: 'string' | 'boolean' }> = { h: { type: 'boolean' } };
	for (const { flag } of flags) options[flag] = { type: 'string' };
	for (const name of switches) options[name] = { type: 'boolean' };
	const { tokens } = parseArgs({
		args: [...args],
		options,
		strict: false,
		allowPositionals: true,
		tokens: true,
	});
	const variables: Partial<Record<SettingName, string>> = {};
	let help = false;
	let version = false;
	let dev = false;
	for (const token of tokens) {
		if (token.kind === 'option-terminator') continue;
		if (token.kind === 'positional') {
			// A flag's value (`--port 4011`) is part of the flag's token: this stands alone.
			return {
				kind: 'refused',
				problem: `unexpected argument "${token.value}" (flags start with --)`,
			};
		}
		if (switches.includes(token.name) || token.name === 'h') {
			if (token.value !== undefined)
				return { kind: 'refused', problem: `${token.rawName} takes no value` };
			if (token.name === 'help' || token.name === 'h') help = true;
			else if (token.name === 'version') version = true;
			else dev = true;
			continue;
		}
		const known = flags.find(({ flag }) => flag === token.name);
		if (!known) return { kind: 'refused', problem: `unknown flag ${token.rawName}` };
		// `--port --log on`: a value that starts with - is the next flag, not this one's value.
		const value =
			token.value === undefined || (token.inlineValue !== true && token.value.startsWith('-'))
				? undefined
				: token.value;
		if (value === undefined) {
			return {
				kind: 'refused',
				problem: `--${known.flag} needs a value: --${known.flag} ${known.setting.value}`,
			};
		}
		const problem = valueProblem(known, value);
		if (problem !== undefined) return { kind: 'refused', problem };
		variables[known.setting.name] = value;
	}
	if (help) return { kind: 'help' };
	if (version) return { kind: 'version' };
	return { kind: 'run', variables, dev: dev || command === 'dev' };
}

/** What is wrong with a flag's value, as its setting's parser says, naming the flag. */
function valueProblem({ flag, setting }: Flag, value: string): string | undefined {
	if (value.trim() === '') return `--${flag}: expected ${setting.value}, not an empty value`;
	const result = setting.schema.safeParse(value);
	if (result.success) return undefined;
	const message = result.error.issues[0]?.message ?? `expected ${setting.value}`;
	return `--${flag}: ${message.startsWith(`${setting.name}: `) ? message.slice(setting.name.length + 2) : message}`;
}

/** The line an error shows under its problem. */
export function usageLine(command: FlagCommand): string {
	const { run } = COMMANDS[command];
	return `Usage: ${run} -- [flags]   (${run} -- --help lists them)`;
}

/** A setting's default as `--help` and the settings reference show it. */
export function defaultText(setting: Setting): string {
	const unset = setting.schema.safeParse(undefined);
	if (setting.unset !== undefined || !unset.success || unset.data === undefined) {
		return setting.unset ?? 'none';
	}
	const shown: unknown = unset.data;
	if (Array.isArray(shown)) return shown.join(',');
	return typeof shown === 'string' || typeof shown === 'number'
		? String(shown)
		: JSON.stringify(shown);
}

/** The package's version, from package.json. */
export function packageVersion(): string {
	const text = readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
	const { version } = JSON.parse(text) as { version?: unknown };
	return typeof version === 'string' ? version : 'unknown';
}

/** A command's `--help`: the usage, each flag with its variable and default, and one example. */
export function helpText(command: FlagCommand): string {
	const { run, summary, example } = COMMANDS[command];
	const rows = flagsOf(command).map(({ flag, setting }) => ({
		left: `--${flag} ${setting.value}`,
		right: `${setting.name}, default: ${defaultText(setting)}`,
		description: setting.description,
	}));
	if (command === 'start') {
		rows.push({
			left: '--dev',
			right: 'npm run dev',
			description: "Astro's dev server instead of a build: pages reload as you edit.",
		});
	}
	rows.push(
		{ left: '--help, -h', right: '', description: 'Prints this help and exits.' },
		{ left: '--version', right: '', description: "Prints the portal's version and exits." },
	);
	const width = Math.max(...rows.map((row) => row.left.length)) + 2;
	const others = SETTING_LIST.filter(
		(setting) =>
			setting.commands.includes(command as Command) &&
			!flagsOf(command).some((flag) => flag.setting.name === setting.name),
	).map((setting) => setting.name);
	return [
		`${run}: ${summary}`,
		'',
		`Usage: ${run} -- [flags]`,
		'',
		'Flags (a flag wins over its environment variable, which wins over the default):',
		...rows.flatMap((row) =>
			row.right === ''
				? [`  ${row.left.padEnd(width)}${row.description}`]
				: [`  ${row.left.padEnd(width)}${row.right}`, `  ${' '.repeat(width)}${row.description}`],
		),
		...(others.length > 0
			? ['', 'Also read from the environment:', ...wrap(others.join(', '), 96, '  ')]
			: []),
		'',
		'Example:',
		`  ${example}`,
		'',
		`Every setting: ${SETTINGS_PAGE} in the portal.`,
		'',
	].join('\n');
}

/** Text broken into lines of at most `width` characters, at spaces, each indented. */
function wrap(text: string, width: number, indent: string): string[] {
	const lines: string[] = [];
	let line = '';
	for (const word of text.split(' ')) {
		if (line !== '' && indent.length + line.length + 1 + word.length > width) {
			lines.push(indent + line);
			line = word;
		} else line = line === '' ? word : `${line} ${word}`;
	}
	if (line !== '') lines.push(indent + line);
	return lines;
}

/**
 * Reads this process's command line for a command: prints the help or the version and exits 0,
 * or refuses with exit code 2; otherwise writes each flag given into its environment variable and
 * says whether `--dev` was given.
 */
export function takeCommandLine(
	command: FlagCommand,
	args: readonly string[] = process.argv.slice(2),
): { dev: boolean } {
	const line = readCommandLine(command, args);
	switch (line.kind) {
		case 'help':
			process.stdout.write(helpText(command));
			process.exit(0);
		// falls through: process.exit never returns
		case 'version':
			process.stdout.write(`${packageVersion()}\n`);
			process.exit(0);
		// falls through: process.exit never returns
		case 'refused':
			process.stderr.write(`${COMMANDS[command].run}: ${line.problem}\n${usageLine(command)}\n`);
			process.exit(2);
		// falls through: process.exit never returns
		case 'run':
			for (const [name, value] of Object.entries(line.variables)) process.env[name] = value;
			return { dev: line.dev };
	}
}
