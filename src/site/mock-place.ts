/** Where this build's pages send readers to the mock: PORTAL_MOCK_URL, PORTAL_URL and MOCK_PORT. */
import { localMockUrl, mockIsLocal, shownMockUrl, type MockPlace } from '../shared/urls.ts';
import { readSettings } from '../sources/settings.ts';

/** The mock's place as the settings give it now (read once per process while they keep their values). */
export function mockPlace(): MockPlace {
	const { mockUrl, portalUrl, mockPort } = readSettings();
	return { mockUrl, portalUrl, mockPort };
}

/** How the pages speak of the mock: its address, absolute, and whose it is. */
export interface MockWords {
	/** The mock's address as pages write it out (`shownMockUrl`). */
	url: string;
	/** Whether it is a reader's own local mock (the default), not one shared by the portal's readers. */
	local: boolean;
	/** The heading over the view's request to the mock. */
	heading: string;
	/** A reader's own local mock, `npm run mock` on their machine. */
	localUrl: string;
}

/** How this build's pages speak of the mock. */
export function mockWords(place: MockPlace = mockPlace()): MockWords {
	const local = mockIsLocal(place);
	return {
		url: shownMockUrl(place),
		local,
		heading: local ? 'Run it against the local mock' : 'Run it against the mock',
		localUrl: localMockUrl(place.mockPort),
	};
}
