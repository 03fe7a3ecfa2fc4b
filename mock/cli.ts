/** `npm run mock`: serves openapi.yaml (PORTAL_OPENAPI overrides) with the directory-aware mock until Ctrl-C. */
import { readSettings } from '../src/schemas/settings.ts';
import { startMock, USERS_PATH } from './server.ts';

try {
	const { mockPort, viewsDir, openApiFile } = readSettings();
	const mock = await startMock({ port: mockPort, viewsDir, contractFile: openApiFile });
	console.log(`Mock of openapi.yaml listening on ${mock.url} (try GET ${mock.url}${USERS_PATH})`);
	const stop = (): void => {
		mock.close().then(
			() => process.exit(0),
			() => process.exit(1),
		);
	};
	process.once('SIGINT', stop);
	process.once('SIGTERM', stop);
} catch (error) {
	console.error(error instanceof Error ? error.message : String(error));
	process.exit(1);
}
