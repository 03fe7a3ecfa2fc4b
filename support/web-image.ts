/**
 * The web image's entry point run without building an image: deploy/web-image/start.sh itself,
 * its image paths pointed into a temporary folder laid out as the image's (the template, the
 * settings script, nginx.conf, /tmp/nginx), then Debian's nginx on loopback serving a test's build.
 */
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ROOT, start, type Started } from './processes.ts';

/** Debian's nginx, or the one NGINX_PATH names. */
export const NGINX = process.env['NGINX_PATH'] ?? '/usr/sbin/nginx';

/** Waits until nginx's binary exists (it may still be being installed), up to a minute. */
export async function nginxInstalled(): Promise<void> {
	for (let waited = 0; !existsSync(NGINX); waited += 1000) {
		if (waited > 60_000) {
			throw new Error(
				`nginx is not installed at ${NGINX}: apt-get install nginx-light (or set NGINX_PATH)`,
			);
		}
		await new Promise((resolve) => setTimeout(resolve, 1000));
	}
}

/** Replaces every occurrence of `from`, failing when there is none (the file changed under us). */
function replaced(text: string, from: string, to: string, file: string): string {
	if (!text.includes(from)) throw new Error(`${file} no longer names ${from}`);
	return text.replaceAll(from, to);
}

/**
 * A folder laid out as the web image's file system, and start.sh's copy reading it: the template
 * with `distDir` as root and the repository's headers file, the image's nginx.conf with
 * /tmp/nginx moved into the folder, and an `nginx` first on PATH that runs Debian's nginx with that
 * configuration, on 127.0.0.1 (the image listens on every address of its own network namespace).
 * The caller removes the folder.
 */
export async function webImageFolder(
	distDir: string,
): Promise<{ folder: string; script: string; run: string }> {
	const folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-web-'));
	const etc = path.join(folder, 'etc');
	const run = path.join(folder, 'run');
	const binDir = path.join(folder, 'bin');
	await Promise.all([mkdir(etc), mkdir(binDir)]);
	const templateFile = 'deploy/console-portal.conf';
	let template = await readFile(path.join(ROOT, templateFile), 'utf8');
	template = replaced(template, '/srv/console-portal/dist', distDir, templateFile);
	template = replaced(
		template,
		'/etc/nginx/snippets/console-portal-headers.conf',
		path.join(ROOT, 'deploy/console-portal-headers.conf'),
		templateFile,
	);
	template = replaced(template, '/tmp/nginx', run, templateFile);
	await writeFile(path.join(etc, 'console-portal.conf.template'), template);
	const mainFile = 'deploy/web-image/nginx.conf';
	const main = replaced(
		await readFile(path.join(ROOT, mainFile), 'utf8'),
		'/tmp/nginx',
		run,
		mainFile,
	);
	// As root (in CI's container), nginx's workers would otherwise run as nobody, who cannot read.
	await writeFile(
		path.join(etc, 'nginx.conf'),
		`${process.getuid?.() === 0 ? 'user root;\n' : ''}${main}`,
	);
	const scriptFile = 'deploy/web-image/start.sh';
	let script = await readFile(path.join(ROOT, scriptFile), 'utf8');
	script = replaced(
		script,
		'/etc/nginx/console-portal.conf.template',
		path.join(etc, 'console-portal.conf.template'),
		scriptFile,
	);
	script = replaced(
		script,
		'/usr/local/lib/console-portal-web/settings.sh',
		path.join(ROOT, 'deploy/web-image/settings.sh'),
		scriptFile,
	);
	script = replaced(script, '/tmp/nginx', run, scriptFile);
	await writeFile(path.join(folder, 'start.sh'), script);
	const nginx = path.join(binDir, 'nginx');
	await writeFile(
		nginx,
		[
			'#!/bin/sh',
			`sed -i 's/listen \\([0-9][0-9]*\\)/listen 127.0.0.1:\\1/' '${run}/console-portal.conf'`,
			`exec '${NGINX}' -p '${run}' -c '${path.join(etc, 'nginx.conf')}' "$@"`,
			'',
		].join('\n'),
	);
	await chmod(nginx, 0o755);
	return { folder, script: path.join(folder, 'start.sh'), run };
}

/** Runs a folder's entry point with these variables; it becomes nginx unless they are refused. */
export function startEntryPoint(
	folder: string,
	script: string,
	env: Record<string, string>,
): Started {
	return start('/bin/sh', [script], {
		env: { ...env, PATH: `${path.join(folder, 'bin')}:/usr/bin:/bin` },
	});
}
