/** The browser tests' shared set-up stops its preview and its Chromium whatever happened. */
import type { Browser } from 'playwright-core';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Preview } from '../../../support/preview.ts';
import type { Started } from '../../../support/processes.ts';

const calls: string[] = [];
const launch = vi.fn<(endpoint: string | undefined) => Promise<Browser>>();
const serve = vi.fn<(distDir: string, port?: number) => Promise<Preview>>();
vi.mock('../../../support/browser.ts', () => ({
	connectOrLaunchChromium: (endpoint: string | undefined) => launch(endpoint),
}));
vi.mock('../../../support/preview.ts', () => ({
	servePortal: (distDir: string, port?: number) => serve(distDir, port),
}));
const { portalSession } = await import('../../support/portal-in-chromium.ts');

/** A browser whose close records itself, or fails with `error`. */
function fakeBrowser(error?: Error): Browser {
	return {
		close: () => {
			calls.push('browser closed');
			return error ? Promise.reject(error) : Promise.resolve();
		},
	} as unknown as Browser;
}

/** A preview on `url` whose stop records itself, or fails with `error`. */
function fakePreview(url: string, error?: Error): Preview {
	const server = {
		stop: () => {
			calls.push('preview stopped');
			return error ? Promise.reject(error) : Promise.resolve();
		},
	} as unknown as Started;
	return { url, server };
}

beforeEach(() => {
	calls.length = 0;
	launch.mockReset();
	serve.mockReset();
});

describe('the preview-and-Chromium set-up of a browser test file', () => {
	it('serves the given build on the given port, then gives its address and browser', async () => {
		const browser = fakeBrowser();
		serve.mockResolvedValue(fakePreview('http://127.0.0.1:41234'));
		launch.mockResolvedValue(browser);
		const session = portalSession({ distDir: () => '/tmp/dist', port: 41234 });
		await session.start();
		expect(serve).toHaveBeenCalledWith('/tmp/dist', 41234);
		expect(session.url).toBe('http://127.0.0.1:41234');
		expect(session.browser).toBe(browser);
		await session.stop();
		expect(calls.sort()).toEqual(['browser closed', 'preview stopped']);
	});

	it('connects to the shared Chromium the project gives, and launches one without it', async () => {
		serve.mockResolvedValue(fakePreview('http://127.0.0.1:41234'));
		launch.mockResolvedValue(fakeBrowser());
		const shared = portalSession({
			distDir: () => '/tmp/dist',
			chromiumEndpoint: () => 'ws://127.0.0.1:41235/a1b2',
		});
		await shared.start();
		await shared.stop();
		const own = portalSession({ distDir: () => '/tmp/dist', chromiumEndpoint: () => undefined });
		await own.start();
		await own.stop();
		expect(launch.mock.calls).toEqual([['ws://127.0.0.1:41235/a1b2'], [undefined]]);
	});

	it('opens the shared preview the project gives, and neither starts nor stops one of its own', async () => {
		launch.mockResolvedValue(fakeBrowser());
		const session = portalSession({ previewUrl: () => 'http://127.0.0.1:41236' });
		await session.start();
		expect(session.url).toBe('http://127.0.0.1:41236');
		await session.stop();
		expect(serve).not.toHaveBeenCalled();
		expect(calls).toEqual(['browser closed']);
	});

	it('serves its own preview when it asks for its own build or port, or the project gives none', async () => {
		serve.mockResolvedValue(fakePreview('http://127.0.0.1:41234'));
		launch.mockResolvedValue(fakeBrowser());
		const shared = () => 'http://127.0.0.1:41236';
		for (const session of [
			portalSession({ distDir: () => '/tmp/own-dist', previewUrl: shared }),
			portalSession({ distDir: () => '/tmp/dist', port: 41234, previewUrl: shared }),
			// The unit project gives no build either: inject('distDir') is undefined here.
			portalSession({ previewUrl: () => undefined }),
		]) {
			await session.start();
			expect(session.url).toBe('http://127.0.0.1:41234');
			await session.stop();
		}
		expect(serve.mock.calls).toEqual([
			['/tmp/own-dist', undefined],
			['/tmp/dist', 41234],
			[undefined, undefined],
		]);
	});

	it('says what is not started when a file reads it outside its tests', () => {
		const session = portalSession({ distDir: () => '/tmp/dist' });
		expect(() => session.url).toThrow('The preview is not started');
		expect(() => session.browser).toThrow('The browser is not started');
	});

	it('stops the preview when Chromium failed to launch', async () => {
		serve.mockResolvedValue(fakePreview('http://127.0.0.1:41234'));
		launch.mockRejectedValue(new Error('no chromium'));
		const session = portalSession({ distDir: () => '/tmp/dist' });
		await expect(session.start()).rejects.toThrow('no chromium');
		await session.stop();
		expect(calls).toEqual(['preview stopped']);
	});

	it('stops the preview when closing Chromium fails, then reports the failure', async () => {
		serve.mockResolvedValue(fakePreview('http://127.0.0.1:41234'));
		launch.mockResolvedValue(fakeBrowser(new Error('close failed')));
		const session = portalSession({ distDir: () => '/tmp/dist' });
		await session.start();
		const stopped = session.stop();
		await expect(stopped).rejects.toThrow('Closing Chromium or stopping the preview failed');
		await expect(stopped).rejects.toHaveProperty('errors', [new Error('close failed')]);
		expect(calls.sort()).toEqual(['browser closed', 'preview stopped']);
	});

	it('closes Chromium when stopping the preview fails, and reports both failures', async () => {
		serve.mockResolvedValue(fakePreview('http://127.0.0.1:41234', new Error('kill failed')));
		launch.mockResolvedValue(fakeBrowser(new Error('close failed')));
		const session = portalSession({ distDir: () => '/tmp/dist' });
		await session.start();
		await expect(session.stop()).rejects.toHaveProperty('errors', [
			new Error('close failed'),
			new Error('kill failed'),
		]);
		expect(calls.sort()).toEqual(['browser closed', 'preview stopped']);
	});

	it('stops nothing when nothing started, as when the file’s own build failed first', async () => {
		await portalSession({ distDir: () => '/tmp/dist' }).stop();
		expect(calls).toEqual([]);
	});
});
