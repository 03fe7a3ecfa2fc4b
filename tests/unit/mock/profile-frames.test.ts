/** The load profile's reading of a CPU profile: which samples count, and how frames are named. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { frameOf, selfInWindow } from '../../../bench/mock-profile.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');

/** A profile of three frames sampled one after the other, each sample 1 ms after the last. */
const profile = {
	nodes: [
		{ id: 1, callFrame: { functionName: '(root)', url: '', lineNumber: -1 }, children: [2, 3, 4] },
		{
			id: 2,
			callFrame: { functionName: 'handle', url: `file://${ROOT}/mock/server.ts`, lineNumber: 9 },
		},
		{ id: 3, callFrame: { functionName: '(idle)', url: '', lineNumber: -1 } },
		{ id: 4, callFrame: { functionName: 'end', url: 'node:_http_outgoing', lineNumber: 1141 } },
	],
	startTime: 1_000_000,
	endTime: 1_006_000,
	// At 1.001 s, 1.002 s … 1.006 s.
	samples: [2, 2, 3, 4, 2, 4],
	timeDeltas: [1000, 1000, 1000, 1000, 1000, 1000],
};

describe('the load profile', () => {
	it('counts only the samples taken under load, and never the idle ones', () => {
		const { frames, busyMs } = selfInWindow(profile, ROOT, [{ from: 1_002_000, to: 1_004_000 }]);
		expect(busyMs).toBe(2);
		expect(Object.fromEntries(frames)).toEqual({
			'handle mock/server.ts:10': 1,
			'end node:_http_outgoing:1142': 1,
		});
	});

	it('adds up each frame over every span of load', () => {
		const { frames, packages } = selfInWindow(profile, ROOT, [
			{ from: 1_000_000, to: 1_002_000 },
			{ from: 1_005_000, to: 1_006_000 },
		]);
		expect(frames.get('handle mock/server.ts:10')).toBe(3);
		expect(packages.get('mock/server.ts')).toBe(3);
		expect(packages.get('node: (internals)')).toBe(1);
	});

	it('names a frame without a file by its function alone', () => {
		expect(frameOf({ functionName: 'writev', url: '', lineNumber: -1 }, ROOT)).toBe('writev');
		expect(frameOf({ functionName: '', url: '', lineNumber: -1 }, ROOT)).toBe('(anonymous)');
	});
});
