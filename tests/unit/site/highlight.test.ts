import { describe, expect, it, vi } from 'vitest';
import {
	highlightHtml,
	highlightRuns,
	runsToHast,
	runsToHtml,
	TOKEN_CLASSES,
	type CodeRun,
} from '../../../src/site/highlight.ts';

/** The text of each run of a kind, e.g. `{ p: ['"name"'], s: ['"Amara"'] }`, trimmed. */
function byKind(runs: readonly CodeRun[]): Record<string, string[]> {
	const kinds: Record<string, string[]> = {};
	for (const { text, kind } of runs) if (kind) (kinds[kind] ??= []).push(text.trim());
	return kinds;
}

const CURL =
	'curl \\\n  -H "Authorization: Bearer ${API_KEY:?export a key}" \\\n  http://127.0.0.1:4010/api/v2/users';

describe('the code highlighter', () => {
	it('marks a JSON key, a string, a number, true and null each with their kind', async () => {
		const runs = await highlightRuns(
			'{\n  "name": "Amara",\n  "port": 8443,\n  "on": true,\n  "note": null\n}',
			'json',
		);
		expect(byKind(runs)).toEqual({
			p: ['"name"', '"port"', '"on"', '"note"'],
			s: ['"Amara"'],
			n: ['8443', 'true', 'null'],
		});
	});

	it('marks a curl command: the command, its option, the quoted header, the variable', async () => {
		const kinds = byKind(await highlightRuns(CURL, 'sh'));
		expect(kinds['f']).toEqual(['curl']);
		expect(kinds['n']).toEqual(['-H']);
		expect(kinds['s']?.[0]).toBe('"Authorization: Bearer');
		expect(kinds['v']?.[0]).toBe('${API_KEY');
		expect(kinds['s']).toContain('http://127.0.0.1:4010/api/v2/users');
	});

	it('marks an HTTP request: the method, each header name and value', async () => {
		const kinds = byKind(
			await highlightRuns(
				'GET /api/v2/users HTTP/1.1\nHost: 127.0.0.1:4010\nAccess-Control-Allow-Origin: *',
				'http',
			),
		);
		expect(kinds['k']).toContain('GET');
		expect(kinds['p']).toEqual(['Host', 'Access-Control-Allow-Origin']);
		expect(kinds['s']).toEqual(['127.0.0.1:4010', '*']);
	});

	it.each([
		['js', "const response = await fetch('http://127.0.0.1:4010/');", ['k', 'f', 's']],
		['python', 'import os\nprint(os.environ["API_KEY"])', ['k', 'f', 's']],
		['go', 'package main\n\nfunc main() { fmt.Println("ok", 1) }', ['k', 'f', 's', 'n']],
		['ruby', "require 'net/http'\nputs Net::HTTP.get(URI('http://x.example/'))", ['s']],
		['php', '<?php\n$ch = curl_init("http://x.example/");\necho 1;', ['f', 's', 'n']],
		['java', 'class Main { public static void main(String[] a) { int n = 1; } }', ['k', 'n']],
		['powershell', '$headers = @{ Authorization = "Bearer $env:API_KEY" }', ['s', 'v']],
		['csharp', 'var client = new HttpClient();\nConsole.WriteLine("ok");', ['k', 's']],
	])(
		'highlights %s, a sample language, and keeps its text as it was',
		async (language, code, kinds) => {
			const runs = await highlightRuns(code, language);
			expect(runs.map(({ text }) => text).join('')).toBe(code);
			expect(Object.keys(byKind(runs))).toEqual(expect.arrayContaining(kinds));
		},
	);

	it('highlights a whole line however slow the machine is: no line is cut at a time limit', async () => {
		// A loaded build machine once shipped a JavaScript sample coloured only up to its first
		// keyword: Shiki stops a line after 500 ms by default. Here every clock reading is a second on.
		await highlightRuns('const warm = 1;', 'js');
		let clock = 0;
		const now = vi.spyOn(Date, 'now').mockImplementation(() => (clock += 1000));
		try {
			const code = "const response = await fetch('http://127.0.0.1:4010/');";
			const runs = await highlightRuns(code, 'js');
			expect(runs.map(({ text }) => text).join('')).toBe(code);
			expect(Object.keys(byKind(runs))).toEqual(expect.arrayContaining(['k', 'f', 's']));
		} finally {
			now.mockRestore();
		}
	});

	it('gives each run of one kind one span: no two runs in a row share a kind', async () => {
		const runs = await highlightRuns('npm run mock\n# a comment\n# another one\nnpm start', 'sh');
		for (let index = 1; index < runs.length; index += 1) {
			expect(runs[index]?.kind, JSON.stringify(runs)).not.toBe(runs[index - 1]?.kind);
		}
		// The two comment lines and the newline between them are one run; so are `run mock`.
		expect(byKind(runs)['c']).toEqual(['# a comment\n# another one']);
		expect(byKind(runs)['s']).toContain('run mock');
	});

	it('writes classes only, never a style, and escapes the code as text', async () => {
		const html = await highlightHtml('{ "a": "<b>&</b>" }', 'json');
		expect(html).toBe(
			'{ <span class="p">"a"</span>: <span class="s">"&lt;b&gt;&amp;&lt;/b&gt;"</span> }',
		);
		const curl = await highlightHtml(CURL, 'sh');
		expect(curl).not.toContain('style');
		expect(curl.match(/class="(\w+)"/g)?.every((name) => /class="[cfknpsv]"/.test(name))).toBe(
			true,
		);
	});

	it('gives the same spans as an HTML tree, for the guides', () => {
		const runs: CodeRun[] = [{ text: 'curl', kind: 'f' }, { text: ' <x>' }];
		expect(runsToHast(runs)).toEqual([
			{
				type: 'element',
				tagName: 'span',
				properties: { className: ['f'] },
				children: [{ type: 'text', value: 'curl' }],
			},
			{ type: 'text', value: ' <x>' },
		]);
		expect(runsToHtml(runs)).toBe('<span class="f">curl</span> &lt;x&gt;');
	});

	it.each([undefined, '', 'text', 'plaintext'])(
		'leaves code in %j as plain text, one run',
		async (language) => {
			expect(await highlightRuns('[mock] 8 views <ok>', language)).toEqual([
				{ text: '[mock] 8 views <ok>' },
			]);
		},
	);

	it('refuses a language it does not know, naming it and those it knows', async () => {
		await expect(highlightRuns('x', 'cobol')).rejects.toThrow(
			/no highlighting for the language "cobol"; expected one of .*\bjson\b.*\bsh\b/,
		);
	});

	it('has one letter per kind of token, as global.css colours them', () => {
		expect(Object.keys(TOKEN_CLASSES).sort()).toEqual(['c', 'f', 'k', 'n', 'p', 's', 'v']);
	});
});
