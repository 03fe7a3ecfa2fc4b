/**
 * The Debian packages the test suite needs, in one list, and the check `npm test` runs before
 * any test (`scripts/system-packages.ts`, package.json's `pretest`; `.ci/run` runs it too):
 * nothing missing, it prints nothing; missing packages are installed when that needs no question
 * (root, or `sudo -n` works, and `apt-get` is on PATH), with one line saying what and why;
 * otherwise it prints the `apt-get install` line to run and fails, so no test runs without what
 * it needs. `NO_SYSTEM_INSTALL=1` turns the installing off.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/** How to tell a package is installed: an executable file it puts there, or a command it lets succeed. */
export type Presence = { file: string } | { runs: readonly [string, ...string[]] };

/** One Debian package the tests need. */
export interface SystemPackage {
	/** The Debian package name, as `apt-get install` takes it. */
	name: string;
	/** What is there once it is installed. */
	presence: Presence;
	/** Installed without its recommends (man pages, documentation, X11 fonts the tests never use). */
	noRecommends: boolean;
	/** Which tests need it, short enough for the one line that says what is installed. */
	why: string;
}

const SAMPLES = 'the samples test runs every code sample with its real client';
const IMAGES = 'the image test builds and runs the images';

/** Every Debian package the tests need; the README's Quick start says the same in prose. */
export const SYSTEM_PACKAGES: readonly SystemPackage[] = [
	{
		name: 'chromium',
		presence: { file: '/usr/bin/chromium' },
		noRecommends: false,
		why: 'the browser tests drive it',
	},
	{
		name: 'nginx-light',
		presence: { file: '/usr/sbin/nginx' },
		noRecommends: false,
		why: 'a test serves the build with deploy/’s nginx configuration',
	},
	{ name: 'httpie', presence: { file: '/usr/bin/http' }, noRecommends: false, why: SAMPLES },
	{
		name: 'python3-requests',
		presence: { runs: ['/usr/bin/python3', '-c', 'import requests'] },
		noRecommends: false,
		why: SAMPLES,
	},
	{ name: 'buildah', presence: { file: '/usr/bin/buildah' }, noRecommends: false, why: IMAGES },
	{ name: 'podman', presence: { file: '/usr/bin/podman' }, noRecommends: false, why: IMAGES },
	{
		name: 'mmdebstrap',
		presence: { file: '/usr/bin/mmdebstrap' },
		noRecommends: false,
		why: IMAGES,
	},
	{ name: 'curl', presence: { file: '/usr/bin/curl' }, noRecommends: true, why: SAMPLES },
	{ name: 'golang-go', presence: { file: '/usr/bin/go' }, noRecommends: true, why: SAMPLES },
	{ name: 'ruby', presence: { file: '/usr/bin/ruby' }, noRecommends: true, why: SAMPLES },
	{ name: 'php-cli', presence: { file: '/usr/bin/php' }, noRecommends: true, why: SAMPLES },
	{
		name: 'php-curl',
		presence: { runs: ['/usr/bin/php', '-r', 'exit(function_exists("curl_init") ? 0 : 1);'] },
		noRecommends: true,
		why: SAMPLES,
	},
	{
		// `java Main.java` compiles the sample in memory: it needs the JDK's compiler, not a JRE.
		name: 'default-jdk-headless',
		presence: { file: '/usr/bin/javac' },
		noRecommends: true,
		why: SAMPLES,
	},
	{
		name: 'git',
		presence: { file: '/usr/bin/git' },
		noRecommends: true,
		why: 'the history tests make git repositories',
	},
];

/** Whether a file is there and executable, under `root` (the machine's `/`, or a test's folder). */
function isExecutable(file: string): boolean {
	try {
		accessSync(file, constants.X_OK);
		return true;
	} catch {
		// accessSync throws for a file that is missing or not executable: the answer.
		return false;
	}
}

/** Whether a package's presence holds on the machine whose `/` is `root`. */
function isInstalled(item: SystemPackage, root: string, env: NodeJS.ProcessEnv): boolean {
	const { presence } = item;
	if ('file' in presence) return isExecutable(path.join(root, presence.file));
	const [command, ...args] = presence.runs;
	const result = spawnSync(path.join(root, command), args, { stdio: 'ignore', env });
	return result.status === 0;
}

/** The packages of a list that are not installed, in the list's order. */
export function missingPackages(
	packages: readonly SystemPackage[],
	root = '/',
	env: NodeJS.ProcessEnv = process.env,
): SystemPackage[] {
	return packages.filter((item) => !isInstalled(item, root, env));
}

/** `apt-get install`'s arguments for some packages: those with their recommends, those without. */
function installGroups(missing: readonly SystemPackage[]): string[][] {
	const withRecommends = missing.filter((item) => !item.noRecommends).map((item) => item.name);
	const without = missing.filter((item) => item.noRecommends).map((item) => item.name);
	return [
		...(withRecommends.length > 0 ? [withRecommends] : []),
		...(without.length > 0 ? [['--no-install-recommends', ...without]] : []),
	];
}

/** The one command line a person runs to install some packages (with `sudo` unless root). */
export function installLine(missing: readonly SystemPackage[], asRoot: boolean): string {
	const prefix = asRoot ? '' : 'sudo ';
	return installGroups(missing)
		.map((group) => `${prefix}apt-get install ${group.join(' ')}`)
		.join(' && ');
}

/** Packages named with why the tests need them: `a, b (why); c (why)`, one group per reason. */
export function packagesWithReasons(missing: readonly SystemPackage[]): string {
	const reasons = new Map<string, string[]>();
	for (const item of missing) reasons.set(item.why, [...(reasons.get(item.why) ?? []), item.name]);
	return [...reasons].map(([why, names]) => `${names.join(', ')} (${why})`).join('; ');
}

/** Whether a command is on the PATH of an environment, as the shell would find it. */
function onPath(command: string, env: NodeJS.ProcessEnv): boolean {
	const folders = (env['PATH'] ?? '').split(path.delimiter).filter((folder) => folder !== '');
	return folders.some((folder) => isExecutable(path.join(folder, command)));
}

const noSystemInstall = z
	.enum(['', '0', '1'], {
		error: (issue) =>
			`NO_SYSTEM_INSTALL is ${JSON.stringify(issue.input)}: expected 1 (do not install Debian packages) or 0`,
	})
	.optional();

/** Where a check runs and what it prints to; every field has the machine's own as its default. */
export interface CheckOptions {
	/** The machine's `/`, under which every presence is looked for. */
	root?: string;
	/** The environment: PATH (for apt-get and sudo) and NO_SYSTEM_INSTALL. */
	env?: NodeJS.ProcessEnv;
	/** The user id the check runs as (0 is root). */
	uid?: number;
	/** The packages to check: the suite's, SYSTEM_PACKAGES. */
	packages?: readonly SystemPackage[];
	/** Prints a line to standard output. */
	print?: (line: string) => void;
	/** Prints a line to standard error. */
	printError?: (line: string) => void;
}

/** Runs a command, its output kept for when it fails; true when it succeeds. */
function runQuietly(
	command: string,
	args: readonly string[],
	env: NodeJS.ProcessEnv,
	printError: (line: string) => void,
): boolean {
	const result = spawnSync(command, args, { env, encoding: 'utf8', maxBuffer: 64 * 1024 ** 2 });
	if (result.status === 0) return true;
	const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim();
	if (output) printError(output);
	if (result.error) printError(`${command}: ${result.error.message}`);
	return false;
}

/**
 * Checks the Debian packages the tests need and installs the missing ones when it can without
 * asking; returns the exit code (0: everything is there).
 */
export function prepareSystemPackages(options: CheckOptions = {}): number {
	const {
		root = '/',
		env = process.env,
		uid = process.getuid?.() ?? -1,
		packages = SYSTEM_PACKAGES,
		print = console.log,
		printError = console.error,
	} = options;
	const setting = noSystemInstall.safeParse(env['NO_SYSTEM_INSTALL']);
	if (!setting.success) {
		printError(setting.error.issues[0]?.message ?? 'NO_SYSTEM_INSTALL: expected 1 or 0');
		return 2;
	}
	const missing = missingPackages(packages, root, env);
	if (missing.length === 0) return 0;

	const asRoot = uid === 0;
	const stop = (reason: string): number => {
		printError(
			`The tests need Debian packages that are not installed (${reason}): ${packagesWithReasons(missing)}. Install them, then run the tests again:`,
		);
		printError(installLine(missing, asRoot));
		return 1;
	};
	if (setting.data === '1') return stop('NO_SYSTEM_INSTALL=1 turns installing them off');
	if (!onPath('apt-get', env)) return stop('apt-get is not on PATH');
	const sudo = !asRoot && onPath('sudo', env) && runQuietly('sudo', ['-n', 'true'], env, () => {});
	if (!asRoot && !sudo) return stop('installing them needs root, or sudo without a password');

	print(
		`Installing the Debian packages the tests need (NO_SYSTEM_INSTALL=1 turns this off): ${packagesWithReasons(missing)}`,
	);
	// As root apt-get reads DEBIAN_FRONTEND from this environment; sudo would reset it, so
	// through sudo it is set by env(1), as root's own.
	const aptGet = (args: readonly string[]): boolean =>
		sudo
			? runQuietly(
					'sudo',
					['-n', 'env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', ...args],
					env,
					printError,
				)
			: runQuietly('apt-get', args, { ...env, DEBIAN_FRONTEND: 'noninteractive' }, printError);
	// Minimal Debian images (the slim ones, and the image test's mmdebstrap base) leave
	// /usr/share/man out, and the JDK's post-install script fails without its man1 folder
	// (https://bugs.debian.org/863199), leaving dpkg half-configured: the folder is made first.
	const manFolder = path.join(root, 'usr/share/man/man1');
	const makeManFolder = (): boolean => {
		if (existsSync(manFolder)) return true;
		if (sudo) return runQuietly('sudo', ['-n', 'mkdir', '-p', manFolder], env, printError);
		try {
			mkdirSync(manFolder, { recursive: true });
			return true;
		} catch (error) {
			printError(`${manFolder}: ${(error as Error).message}`);
			return false;
		}
	};
	const installed =
		makeManFolder() &&
		aptGet(['update', '-qq']) &&
		installGroups(missing).every((group) => aptGet(['install', '-y', '-qq', ...group]));
	if (!installed) return stop('apt-get failed, above');
	const still = missingPackages(missing, root, env);
	if (still.length > 0) {
		printError(
			`apt-get installed ${still.map((item) => item.name).join(', ')}, but the tests still do not find ${still.map((item) => ('file' in item.presence ? item.presence.file : item.presence.runs.join(' '))).join(', ')}.`,
		);
		return 1;
	}
	return 0;
}
