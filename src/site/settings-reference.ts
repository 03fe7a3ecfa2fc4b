/**
 * The settings reference, generated from the one table of settings (src/sources/settings.ts):
 * every environment variable the portal's commands read, its flags, default and commands.
 */
import { COMMANDS, defaultText, type FlagCommand } from '../sources/command-line.ts';
import { SETTING_LIST, type Command, type Setting, type SettingName } from '../sources/settings.ts';

/** One row of the settings reference. */
export interface SettingRow {
	/** The environment variable. */
	readonly name: SettingName;
	/** Its flags, each with the commands that take it: `--port` (npm run mock). */
	readonly flags: readonly { readonly flag: string; readonly commands: readonly string[] }[];
	/** The value as usage lines show it: `<port>`. */
	readonly value: string;
	/** The default, or what happens when it is not set. */
	readonly defaultText: string;
	readonly description: string;
	/** The commands that read it, as a person runs them. */
	readonly commands: readonly string[];
}

/** A group of settings, by what reads them. */
export interface SettingGroup {
	readonly id: string;
	readonly title: string;
	readonly rows: readonly SettingRow[];
}

/** A command as a person runs it. */
const RUN: Readonly<Record<Command, string>> = {
	start: 'npm start',
	dev: 'npm run dev',
	mock: 'npm run mock',
	conform: 'npm run conform',
	mcp: 'npm run mcp',
	build: 'npm run build',
	image: 'npm run image',
	'web image': 'the web image',
	test: 'npm test',
};

/** The commands that take flags. */
const FLAG_COMMANDS = Object.keys(COMMANDS) as FlagCommand[];

/** A setting's row. */
function rowOf(setting: Setting & { readonly name: SettingName }): SettingRow {
	const flags: { flag: string; commands: string[] }[] = [];
	for (const command of FLAG_COMMANDS) {
		const flag = setting.flagOn?.[command] ?? setting.flag;
		if (flag === undefined || !setting.commands.includes(command)) continue;
		const same = flags.find((entry) => entry.flag === `--${flag}`);
		if (same) same.commands.push(RUN[command]);
		else flags.push({ flag: `--${flag}`, commands: [RUN[command]] });
	}
	return {
		name: setting.name,
		flags,
		value: setting.value,
		defaultText: defaultText(setting),
		description: setting.description,
		commands: setting.commands.map((command) => RUN[command]),
	};
}

/** Which group a setting is in: the conformance run's, the images', the tests', or the portal's. */
function groupOf(setting: Setting): string {
	const only = (commands: readonly Command[]) =>
		setting.commands.every((command) => commands.includes(command));
	if (only(['conform'])) return 'conformance';
	if (only(['image', 'web image'])) return 'images';
	if (only(['test'])) return 'tests';
	return 'portal';
}

/** The groups of the reference, in this order. */
const GROUPS: readonly { id: string; title: string }[] = [
	{ id: 'portal', title: 'The portal, the mock and MCP' },
	{ id: 'conformance', title: 'The conformance run' },
	{ id: 'images', title: 'The images' },
	{ id: 'tests', title: 'The tests' },
];

/** Every setting, grouped by what reads it, in the table's order. */
export function settingGroups(): readonly SettingGroup[] {
	return GROUPS.map(({ id, title }) => ({
		id,
		title,
		rows: SETTING_LIST.filter((setting) => groupOf(setting) === id).map(rowOf),
	}));
}

/** A Markdown cell: its pipes escaped, on one line. */
function cell(text: string): string {
	return text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
}

/**
 * One group of the reference as a Markdown table (for the MCP server's text of the settings
 * guide, which has no build to render the page's component): the same rows the page shows.
 */
export function settingsMarkdown(group: string): string {
	const found = settingGroups().find(({ id }) => id === group);
	if (!found) throw new Error(`settingsMarkdown: no group of settings "${group}"`);
	const lines = [
		'| Variable | Flag | Default | What it changes | Read by |',
		'| --- | --- | --- | --- | --- |',
	];
	for (const row of found.rows) {
		const flags =
			row.flags
				.map(({ flag, commands }) => {
					const named = `\`${flag} ${row.value}\``;
					return row.flags.length > 1 ? `${named} (${commands.join(', ')})` : named;
				})
				.join('; ') || '–';
		lines.push(
			`| \`${row.name}\` | ${cell(flags)} | ${cell(row.defaultText)} | ${cell(row.description)} | ${cell(row.commands.join(', '))} |`,
		);
	}
	return lines.join('\n');
}
