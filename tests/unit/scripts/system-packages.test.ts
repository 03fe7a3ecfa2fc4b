/**
 * The check `npm test` runs first, on a stand-in machine: a temporary folder as its `/`, holding
 * the files the packages put there, and a PATH of stand-in `apt-get` and `sudo` scripts that
 * record their arguments and, for `apt-get install`, put the named packages' files in place.
 * The user id is given, so no test runs the real apt-get, whoever runs it.
 */
import { chmod, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
	prepareSystemPackages,
	SYSTEM_PACKAGES,
	type CheckOptions,
} from '../../../scripts/lib/system-packages.ts';

const REPO = path.resolve(import.meta.dirname, '../../..');

/** What each package puts on the stand-in machine, written out here rather than read from the list. */
const FILES: Record<string, string> = {
	chromium: '/usr/bin/chromium',
	'nginx-light': '/usr/sbin/nginx',
	httpie: '/usr/bin/http',
	buildah: '/usr/bin/buildah',
	podman: '/usr/bin/podman',
	mmdebstrap: '/usr/bin/mmdebstrap',
	curl: '/usr/bin/curl',
	'golang-go': '/usr/bin/go',
	ruby: '/usr/bin/ruby',
	'php-cli': '/usr/bin/php',
	'default-jdk-headless': '/usr/bin/javac',
	git: '/usr/bin/git',
};
/** Packages seen only through a command: a marker file the stand-in commands look for. */
const MARKED = ['python3-requests', 'php-curl'];

let scratch: string;
let root: string;
let bin: string;

/** Puts a package on the stand-in machine: its file (from packages/), or its marker. */
async function install(name: string): Promise<void> {
	const file = FILES[name];
	if (file) await script(path.join(root, file), standInBody(name));
	else await writeFile(path.join(root, 'installed', name), '');
}

/** What a package's stand-in file does: php's runs `-r` only with its curl extension. */
function standInBody(name: string): string {
	return name === 'php-cli' ? `[ "$1" != -r ] || [ -e '${root}/installed/php-curl' ]` : 'exit 0';
}

/** Writes an executable shell script. */
async function script(file: string, body: string): Promise<void> {
	await mkdir(path.dirname(file), { recursive: true });
	await writeFile(file, `#!/bin/sh\n${body}\n`);
	await chmod(file, 0o755);
}

/** A machine with every package but the ones named. */
async function machineWithout(...absent: string[]): Promise<void> {
	for (const name of [...Object.keys(FILES), ...MARKED]) {
		if (!absent.includes(name)) await install(name);
	}
}

/** A stand-in apt-get: records DEBIAN_FRONTEND and its arguments, installs, exits with `code`. */
async function standInAptGet(code = 0, output = ''): Promise<void> {
	// As Debian's does, the JDK's post-install script links its man page into /usr/share/man/man1
	// and fails when that folder is not there (minimal images leave /usr/share/man out).
	const needsMan = (name: string): string =>
		name === 'default-jdk-headless'
			? `[ -d '${root}/usr/share/man/man1' ] || { echo "update-alternatives: error: no /usr/share/man/man1" >&2; exit 100; }; `
			: '';
	const cases = [...Object.entries(FILES)].map(
		([name, file]) =>
			`${name}) ${needsMan(name)}/bin/mkdir -p '${path.dirname(root + file)}'; /bin/cp '${scratch}/packages/${name}' '${root}${file}' ;;`,
	);
	const marked = MARKED.map((name) => `${name}) : > '${root}/installed/${name}' ;;`);
	await script(
		path.join(bin, 'apt-get'),
		[
			`echo "$DEBIAN_FRONTEND $*" >> '${scratch}/apt-get.log'`,
			output ? `echo '${output}' >&2` : '',
			`[ ${code} -eq 0 ] || exit ${code}`,
			'[ "$1" = install ] || exit 0',
			'for package in "$@"; do',
			'case "$package" in',
			...cases,
			...marked,
			'esac',
			'done',
		].join('\n'),
	);
}

/** A stand-in sudo: records its arguments; `sudo -n true` exits with `askCode`, others run. */
async function standInSudo(askCode: number): Promise<void> {
	await script(
		path.join(bin, 'sudo'),
		[
			`echo "$*" >> '${scratch}/sudo.log'`,
			`if [ "$*" = "-n true" ]; then exit ${askCode}; fi`,
			'[ "$1" = -n ] && shift',
			'exec "$@"',
		].join('\n'),
	);
}

/** The lines a stand-in recorded, or none when it never ran. */
async function calls(name: 'apt-get' | 'sudo'): Promise<string[]> {
	const log = path.join(scratch, `${name}.log`);
	if (!existsSync(log)) return [];
	return (await readFile(log, 'utf8')).trim().split('\n');
}

/** Runs the check on the stand-in machine; its exit code and what it printed. */
function check(uid: number, env: NodeJS.ProcessEnv = {}, options: CheckOptions = {}) {
	const out: string[] = [];
	const err: string[] = [];
	const code = prepareSystemPackages({
		root,
		uid,
		env: { PATH: bin, ...env },
		print: (line) => out.push(line),
		printError: (line) => err.push(line),
		...options,
	});
	return { code, out, err };
}

beforeEach(async () => {
	scratch = await mkdtemp(path.join(os.tmpdir(), 'system-packages-'));
	root = path.join(scratch, 'root');
	bin = path.join(scratch, 'bin');
	await mkdir(path.join(root, 'installed'), { recursive: true });
	// A full Debian has its man page folders; a minimal one (as in the tests that remove it) not.
	await mkdir(path.join(root, 'usr/share/man/man1'), { recursive: true });
	await mkdir(bin);
	// Through sudo, apt-get runs as `env DEBIAN_FRONTEND=noninteractive apt-get …`.
	await symlink('/usr/bin/env', path.join(bin, 'env'));
	// and makes the man page folder a minimal Debian lacks with `mkdir -p`.
	await symlink('/usr/bin/mkdir', path.join(bin, 'mkdir'));
	// Debian's python3, as a stand-in that imports requests once python3-requests is installed.
	await script(path.join(root, 'usr/bin/python3'), `[ -e '${root}/installed/python3-requests' ]`);
	// What the stand-in apt-get copies into place for each package.
	for (const name of Object.keys(FILES)) {
		await script(path.join(scratch, 'packages', name), standInBody(name));
	}
});

afterEach(async () => {
	await rm(scratch, { recursive: true, force: true });
});

const SAMPLES = 'the samples test runs every code sample with its real client';

describe('the Debian packages npm test needs', () => {
	it('prints nothing and installs nothing when every package is there', async () => {
		await machineWithout();
		await standInAptGet();
		expect(check(0)).toEqual({ code: 0, out: [], err: [] });
		expect(await calls('apt-get')).toEqual([]);
	});

	it('installs what is missing as root, saying in one line what and why, both groups quietly', async () => {
		await machineWithout('chromium', 'php-curl', 'golang-go');
		await standInAptGet();
		expect(check(0)).toEqual({
			code: 0,
			out: [
				'Installing the Debian packages the tests need (NO_SYSTEM_INSTALL=1 turns this off): ' +
					`chromium (the browser tests drive it); golang-go, php-curl (${SAMPLES})`,
			],
			err: [],
		});
		expect(await calls('apt-get')).toEqual([
			'noninteractive update -qq',
			'noninteractive install -y -qq chromium',
			'noninteractive install -y -qq --no-install-recommends golang-go php-curl',
		]);
		expect(check(0)).toEqual({ code: 0, out: [], err: [] });
	});

	it('installs through sudo when sudo needs no password', async () => {
		await machineWithout('python3-requests');
		await standInAptGet();
		await standInSudo(0);
		const { code, out, err } = check(1000);
		expect({ code, lines: out.length, err }).toEqual({ code: 0, lines: 1, err: [] });
		expect(await calls('sudo')).toEqual([
			'-n true',
			'-n env DEBIAN_FRONTEND=noninteractive apt-get update -qq',
			'-n env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-requests',
		]);
		expect(await calls('apt-get')).toEqual([
			'noninteractive update -qq',
			'noninteractive install -y -qq python3-requests',
		]);
	});

	it('stops with the one apt-get line to run when neither root nor sudo without a password', async () => {
		await machineWithout('chromium', 'mmdebstrap', 'ruby');
		await standInAptGet();
		await standInSudo(1);
		expect(check(1000)).toEqual({
			code: 1,
			out: [],
			err: [
				'The tests need Debian packages that are not installed (installing them needs root, or sudo ' +
					'without a password): chromium (the browser tests drive it); mmdebstrap (the image test ' +
					`builds and runs the images); ruby (${SAMPLES}). Install them, then run the tests again:`,
				'sudo apt-get install chromium mmdebstrap && sudo apt-get install --no-install-recommends ruby',
			],
		});
		expect(await calls('apt-get')).toEqual([]);
		expect(await calls('sudo')).toEqual(['-n true']);
	});

	it('stops with the line to run when there is no sudo at all', async () => {
		await machineWithout('podman');
		await standInAptGet();
		const { code, err } = check(1000);
		expect({ code, line: err[1] }).toEqual({ code: 1, line: 'sudo apt-get install podman' });
		expect(await calls('apt-get')).toEqual([]);
	});

	it('names every package in the line to run on a machine that has none of them', async () => {
		await standInAptGet();
		const { code, err } = check(1000, { NO_SYSTEM_INSTALL: '1' });
		expect({ code, line: err[1] }).toEqual({
			code: 1,
			line:
				'sudo apt-get install chromium nginx-light httpie python3-requests buildah podman mmdebstrap' +
				' && sudo apt-get install --no-install-recommends curl golang-go ruby php-cli php-curl' +
				' default-jdk-headless git',
		});
	});

	it('installs nothing with NO_SYSTEM_INSTALL=1, even as root, and says so', async () => {
		await machineWithout('nginx-light');
		await standInAptGet();
		expect(check(0, { NO_SYSTEM_INSTALL: '1' })).toEqual({
			code: 1,
			out: [],
			err: [
				'The tests need Debian packages that are not installed (NO_SYSTEM_INSTALL=1 turns ' +
					'installing them off): nginx-light (a test serves the build with deploy/’s nginx ' +
					'configuration). Install them, then run the tests again:',
				'apt-get install nginx-light',
			],
		});
		expect(await calls('apt-get')).toEqual([]);
	});

	it('installs with NO_SYSTEM_INSTALL=0, and refuses a value it does not know', async () => {
		await machineWithout('git');
		await standInAptGet();
		expect(check(0, { NO_SYSTEM_INSTALL: 'yes' })).toEqual({
			code: 2,
			out: [],
			err: ['NO_SYSTEM_INSTALL is "yes": expected 1 (do not install Debian packages) or 0'],
		});
		expect(await calls('apt-get')).toEqual([]);
		expect(check(0, { NO_SYSTEM_INSTALL: '0' }).code).toBe(0);
		expect(await calls('apt-get')).toEqual([
			'noninteractive update -qq',
			'noninteractive install -y -qq --no-install-recommends git',
		]);
	});

	it('stops with the line to run when apt-get is not on PATH', async () => {
		await machineWithout('httpie');
		expect(check(0).err).toEqual([
			'The tests need Debian packages that are not installed (apt-get is not on PATH): httpie ' +
				`(${SAMPLES}). Install them, then run the tests again:`,
			'apt-get install httpie',
		]);
	});

	it('shows what apt-get said and the line to run when it fails', async () => {
		await machineWithout('buildah');
		await standInAptGet(100, 'E: Unable to locate package buildah');
		expect(check(0)).toEqual({
			code: 1,
			out: [
				'Installing the Debian packages the tests need (NO_SYSTEM_INSTALL=1 turns this off): ' +
					'buildah (the image test builds and runs the images)',
			],
			err: [
				'E: Unable to locate package buildah',
				'The tests need Debian packages that are not installed (apt-get failed, above): buildah ' +
					'(the image test builds and runs the images). Install them, then run the tests again:',
				'apt-get install buildah',
			],
		});
	});

	it('installs the JDK on a minimal Debian, which has no /usr/share/man (its post-install needs it)', async () => {
		await machineWithout('default-jdk-headless');
		await rm(path.join(root, 'usr/share/man'), { recursive: true });
		await standInAptGet();
		expect(check(0)).toEqual({
			code: 0,
			out: [
				'Installing the Debian packages the tests need (NO_SYSTEM_INSTALL=1 turns this off): ' +
					`default-jdk-headless (${SAMPLES})`,
			],
			err: [],
		});
		expect(existsSync(path.join(root, 'usr/share/man/man1'))).toBe(true);
	});

	it('makes the man page folder through sudo too, when not root', async () => {
		await machineWithout('default-jdk-headless');
		await rm(path.join(root, 'usr/share/man'), { recursive: true });
		await standInAptGet();
		await standInSudo(0);
		expect(check(1000).code).toBe(0);
		expect(await calls('sudo')).toEqual([
			'-n true',
			`-n mkdir -p ${path.join(root, 'usr/share/man/man1')}`,
			'-n env DEBIAN_FRONTEND=noninteractive apt-get update -qq',
			'-n env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends default-jdk-headless',
		]);
	});

	it('fails, naming the file, when apt-get succeeds but the package is still not found', async () => {
		await machineWithout('default-jdk-headless');
		await script(path.join(bin, 'apt-get'), 'exit 0');
		expect(check(0).err).toEqual([
			'apt-get installed default-jdk-headless, but the tests still do not find /usr/bin/javac.',
		]);
	});
});

describe('where the check runs', () => {
	it('stops `npm test` before any test when it cannot install what is missing', async () => {
		await machineWithout('chromium');
		await standInAptGet();
		// A project of its own whose pretest is the check on the stand-in machine, as a user without
		// root or sudo, and whose test leaves a mark when it runs.
		const project = path.join(scratch, 'project');
		await mkdir(project);
		const check = `import { prepareSystemPackages } from ${JSON.stringify(path.join(REPO, 'scripts/lib/system-packages.ts'))};
process.exitCode = prepareSystemPackages({ root: ${JSON.stringify(root)}, uid: 1000, env: { PATH: ${JSON.stringify(bin)} } });
`;
		await writeFile(path.join(project, 'check.mjs'), check);
		await writeFile(
			path.join(project, 'package.json'),
			JSON.stringify({
				name: 'stand-in',
				private: true,
				scripts: {
					pretest: 'node check.mjs',
					test: "node -e \"require('fs').writeFileSync('ran', '')\"",
				},
			}),
		);
		const result = spawnSync('npm', ['test', '--silent'], {
			cwd: project,
			encoding: 'utf8',
			env: {
				...process.env,
				PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env['PATH'] ?? ''}`,
			},
		});
		expect({
			failed: result.status !== 0,
			testRan: existsSync(path.join(project, 'ran')),
			line: result.stderr.split('\n')[1],
		}).toEqual({ failed: true, testRan: false, line: 'sudo apt-get install chromium' });
		expect(await calls('apt-get')).toEqual([]);
	});

	it('runs before every test of `npm test`, from the one list', async () => {
		const manifest = JSON.parse(await readFile(path.join(REPO, 'package.json'), 'utf8')) as {
			scripts: Record<string, string>;
		};
		expect(manifest.scripts['pretest']).toBe('node scripts/system-packages.ts');
	});

	it('is what .ci/run installs the tests’ packages with, so no second list can drift', async () => {
		const ci = await readFile(path.join(REPO, '.ci/run'), 'utf8');
		expect(ci).toContain('node_modules/.bin/node scripts/system-packages.ts');
		expect(ci).not.toMatch(/chromium nginx|\[ -x \/usr\/bin\/chromium \]/);
	});

	it.each(SYSTEM_PACKAGES.map((item) => item.name))(
		'%s is in the README’s list of what the tests need it for',
		async (name) => {
			const readme = await readFile(path.join(REPO, 'README.md'), 'utf8');
			const start = readme.indexOf('## Quick start');
			const quickStart = readme.slice(start, readme.indexOf('\n## ', start));
			const bullets = quickStart.match(/^- [\s\S]*?(?=\n- |\n\n|(?![\s\S]))/gm) ?? [];
			expect(bullets.filter((bullet) => bullet.includes(`\`${name}\``))).toHaveLength(1);
		},
	);
});
