/** The commands and samples a reader copies: literal expected text, hostile input kept inert. */
import { describe, expect, it } from 'vitest';
import {
	authHeader,
	codeSamples,
	sampleUrl,
	usersSampleRequest,
	type SampleRequest,
} from '../../../src/site/code-samples.ts';
import { buildCurl, shellLines, shellQuote } from '../../../src/shared/curl.ts';

const bearer = { header: 'Authorization', prefix: 'Bearer ' };

describe('shellLines', () => {
	it('puts each argument of a longer command on a line of its own, ending the others in a backslash', () => {
		expect(shellLines('curl -I', ['-H "Prefer: code=401"', 'http://127.0.0.1:4010/'])).toBe(
			'curl -I \\\n  -H "Prefer: code=401" \\\n  http://127.0.0.1:4010/',
		);
	});

	it('keeps a command with one argument on one line', () => {
		expect(shellLines('curl', ['http://127.0.0.1:4010/'])).toBe('curl http://127.0.0.1:4010/');
	});
});

describe('buildCurl', () => {
	it('writes the common case without quotes it does not need', () => {
		expect(buildCurl({ baseUrl: 'http://203.0.113.24:8443/', key: 'ick-4f1c9a07-Qx7m' })).toBe(
			'curl \\\n  -H "Authorization: Bearer ick-4f1c9a07-Qx7m" \\\n  http://203.0.113.24:8443/api/v2/users',
		);
		expect(buildCurl({ baseUrl: 'http://127.0.0.1:4010///', key: '' })).toBe(
			'curl http://127.0.0.1:4010/api/v2/users',
		);
		expect(buildCurl({ baseUrl: 'http://127.0.0.1:4010', key: '' })).toBe(
			'curl http://127.0.0.1:4010/api/v2/users',
		);
	});

	it('keeps a pasted key with shell syntax inert, in single quotes', () => {
		expect(buildCurl({ baseUrl: 'http://127.0.0.1:4010', key: '$(rm -rf ~)' })).toBe(
			`curl \\\n  -H 'Authorization: Bearer $(rm -rf ~)' \\\n  http://127.0.0.1:4010/api/v2/users`,
		);
		expect(buildCurl({ baseUrl: 'http://127.0.0.1:4010', key: "it's`id`" })).toBe(
			`curl \\\n  -H 'Authorization: Bearer it'\\''s\`id\`' \\\n  http://127.0.0.1:4010/api/v2/users`,
		);
	});
});

describe('shellQuote', () => {
	it.each([
		['plain-word_1.2:3/4@5%6+7=8,9', 'plain-word_1.2:3/4@5%6+7=8,9'],
		['two words', "'two words'"],
		["it's", "'it'\\''s'"],
		['$HOME', "'$HOME'"],
		['a\nb', "'a\nb'"],
	])('quotes %j as %j', (word, quoted) => {
		expect(shellQuote(word)).toBe(quoted);
	});

	it('prefers double quotes only where nothing inside them would expand', () => {
		expect(shellQuote('Prefer: code=401', true)).toBe('"Prefer: code=401"');
		expect(shellQuote('Bearer $KEY', true)).toBe("'Bearer $KEY'");
		expect(shellQuote('say "hi"', true)).toBe(`'say "hi"'`);
	});
});

describe('codeSamples', () => {
	it('gives curl, Node fetch, Python requests, HTTPie, Go, Ruby, PHP and Java samples, exactly', () => {
		const samples = codeSamples({
			method: 'get',
			server: 'http://127.0.0.1:5010/',
			path: '/api/v2/users',
			query: [],
			auth: bearer,
		});
		expect(samples.map(({ label, language, runner }) => [label, language, runner])).toEqual([
			['curl', 'sh', 'sh'],
			['Node (fetch)', 'js', 'node'],
			['Python (requests)', 'python', 'python'],
			['HTTPie', 'sh', 'sh'],
			['Go', 'go', 'go'],
			['Ruby', 'ruby', 'ruby'],
			['PHP', 'php', 'php'],
			['Java', 'java', 'java'],
		]);
		expect(samples.slice(0, 4).map(({ code }) => code)).toEqual([
			'curl \\\n  -H "Authorization: Bearer ${API_KEY:?export a key from a view page first}" \\\n  http://127.0.0.1:5010/api/v2/users',
			[
				'if (!process.env.API_KEY) {',
				"  console.error('API_KEY: export a key from a view page first');",
				'  process.exit(1);',
				'}',
				"const response = await fetch('http://127.0.0.1:5010/api/v2/users', {",
				"  method: 'GET',",
				"  headers: { 'Authorization': `Bearer ${process.env.API_KEY}` },",
				'});',
				'console.log(response.status, JSON.stringify(await response.json(), null, 2));',
			].join('\n'),
			[
				'import os',
				'import sys',
				'import requests',
				'',
				'if not os.environ.get("API_KEY"):',
				'    sys.exit("API_KEY: export a key from a view page first")',
				'',
				'response = requests.request(',
				'    "GET",',
				'    "http://127.0.0.1:5010/api/v2/users",',
				'    headers={"Authorization": "Bearer " + os.environ["API_KEY"]},',
				'    timeout=10,',
				')',
				'print(response.status_code, response.json())',
			].join('\n'),
			'http --ignore-stdin GET http://127.0.0.1:5010/api/v2/users "Authorization:Bearer ${API_KEY:?export a key from a view page first}"',
		]);
	});

	it('writes Go, Ruby, PHP and Java samples that stop without API_KEY, exactly', () => {
		const samples = codeSamples({
			method: 'get',
			server: 'http://127.0.0.1:5010/',
			path: '/api/v2/users',
			query: [],
			auth: bearer,
		});
		expect(samples.slice(4).map(({ code }) => code)).toEqual([
			[
				'package main',
				'',
				'import (',
				'    "fmt"',
				'    "io"',
				'    "net/http"',
				'    "os"',
				')',
				'',
				'func main() {',
				'    key := os.Getenv("API_KEY")',
				'    if key == "" {',
				'        fmt.Fprintln(os.Stderr, "API_KEY: export a key from a view page first")',
				'        os.Exit(1)',
				'    }',
				'    request, err := http.NewRequest("GET", "http://127.0.0.1:5010/api/v2/users", nil)',
				'    if err != nil {',
				'        panic(err)',
				'    }',
				'    request.Header.Set("Authorization", "Bearer "+key)',
				'    response, err := http.DefaultClient.Do(request)',
				'    if err != nil {',
				'        panic(err)',
				'    }',
				'    defer response.Body.Close()',
				'    answer, err := io.ReadAll(response.Body)',
				'    if err != nil {',
				'        panic(err)',
				'    }',
				'    fmt.Println(response.StatusCode, string(answer))',
				'}',
			].join('\n'),
			[
				"require 'net/http'",
				'',
				"abort 'API_KEY: export a key from a view page first' if ENV.fetch('API_KEY', '').empty?",
				'',
				"uri = URI('http://127.0.0.1:5010/api/v2/users')",
				'request = Net::HTTP::Get.new(uri)',
				"request['Authorization'] = 'Bearer ' + ENV['API_KEY']",
				'response = Net::HTTP.start(uri.hostname, uri.port) { |http| http.request(request) }',
				'puts response.code, response.body',
			].join('\n'),
			[
				'<?php',
				"$key = getenv('API_KEY');",
				"if ($key === false || $key === '') {",
				"    fwrite(STDERR, 'API_KEY: export a key from a view page first' . PHP_EOL);",
				'    exit(1);',
				'}',
				"$curl = curl_init('http://127.0.0.1:5010/api/v2/users');",
				'curl_setopt_array($curl, [',
				"    CURLOPT_CUSTOMREQUEST => 'GET',",
				"    CURLOPT_HTTPHEADER => ['Authorization: Bearer ' . $key],",
				'    CURLOPT_RETURNTRANSFER => true,',
				']);',
				'$answer = curl_exec($curl);',
				'if ($answer === false) {',
				'    fwrite(STDERR, curl_error($curl) . PHP_EOL);',
				'    exit(1);',
				'}',
				"echo curl_getinfo($curl, CURLINFO_RESPONSE_CODE), ' ', $answer, PHP_EOL;",
			].join('\n'),
			[
				'import java.net.URI;',
				'import java.net.http.HttpClient;',
				'import java.net.http.HttpRequest;',
				'import java.net.http.HttpResponse;',
				'',
				'public class Main {',
				'    public static void main(String[] args) throws Exception {',
				'        String key = System.getenv("API_KEY");',
				'        if (key == null || key.isEmpty()) {',
				'            System.err.println("API_KEY: export a key from a view page first");',
				'            System.exit(1);',
				'        }',
				'        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:5010/api/v2/users"))',
				'            .method("GET", HttpRequest.BodyPublishers.noBody())',
				'            .header("Authorization", "Bearer " + key)',
				'            .build();',
				'        HttpResponse<String> response = HttpClient.newHttpClient()',
				'            .send(request, HttpResponse.BodyHandlers.ofString());',
				'        System.out.println(response.statusCode() + " " + response.body());',
				'    }',
				'}',
			].join('\n'),
		]);
	});

	it('asks HEAD in Go, Ruby, PHP and Java for headers, and sends header parameters without a key', () => {
		const [go, ruby, php, java] = codeSamples({
			method: 'head',
			server: 'http://127.0.0.1:5010',
			path: '/api/v2/users',
			query: [],
			headers: [{ name: 'Origin', value: 'http://127.0.0.1:4321' }],
			body: false,
		})
			.slice(4)
			.map(({ code }) => code);
		expect(go).not.toMatch(/"io"|"os"|API_KEY/);
		expect(go).toContain('    request.Header.Set("Origin", "http://127.0.0.1:4321")\n');
		expect(go).toContain('    fmt.Println(response.StatusCode, response.Header)\n}');
		expect(ruby).toContain(
			"request = Net::HTTP::Head.new(uri)\nrequest['Origin'] = 'http://127.0.0.1:4321'\n",
		);
		expect(ruby).not.toContain('API_KEY');
		expect(ruby).toMatch(/puts response\.code, response\.to_hash$/);
		expect(php).toContain(
			"    CURLOPT_NOBODY => true,\n    CURLOPT_HTTPHEADER => ['Origin: http://127.0.0.1:4321'],\n    CURLOPT_HEADER => true,\n",
		);
		expect(php).not.toMatch(/CUSTOMREQUEST|API_KEY/);
		expect(java).toContain(
			'            .method("HEAD", HttpRequest.BodyPublishers.noBody())\n            .header("Origin", "http://127.0.0.1:4321")\n            .build();',
		);
		expect(java).toContain('response.headers().map()');
		expect(java).not.toContain('API_KEY');
	});

	it('asks HEAD for the status and headers only, with the key', () => {
		const [curl, node, python, httpie] = codeSamples({
			method: 'head',
			server: 'http://127.0.0.1:5010',
			path: '/api/v2/users',
			query: [],
			auth: bearer,
		}).map(({ code }) => code);
		expect(curl).toBe(
			'curl --head \\\n  -H "Authorization: Bearer ${API_KEY:?export a key from a view page first}" \\\n  http://127.0.0.1:5010/api/v2/users',
		);
		expect(node).toContain("  method: 'HEAD',\n");
		expect(node).toMatch(
			/console\.log\(response\.status, Object\.fromEntries\(response\.headers\)\);$/,
		);
		expect(python).toMatch(/print\(response\.status_code, dict\(response\.headers\)\)$/);
		expect(httpie).toBe(
			'http --ignore-stdin --headers HEAD http://127.0.0.1:5010/api/v2/users "Authorization:Bearer ${API_KEY:?export a key from a view page first}"',
		);
	});

	it('sends header parameters, and shows the headers of an answer without a body', () => {
		const [curl, node, python, httpie] = codeSamples({
			method: 'options',
			server: 'http://127.0.0.1:5010',
			path: '/api/v2/users',
			query: [],
			headers: [
				{ name: 'Origin', value: 'http://127.0.0.1:4321' },
				{ name: 'Access-Control-Request-Method', value: 'GET' },
			],
			body: false,
		}).map(({ code }) => code);
		expect(curl).toBe(
			[
				'curl -i -X OPTIONS \\',
				'  -H "Origin: http://127.0.0.1:4321" \\',
				'  -H "Access-Control-Request-Method: GET" \\',
				'  http://127.0.0.1:5010/api/v2/users',
			].join('\n'),
		);
		expect(node).toBe(
			[
				"const response = await fetch('http://127.0.0.1:5010/api/v2/users', {",
				"  method: 'OPTIONS',",
				"  headers: { 'Origin': 'http://127.0.0.1:4321', 'Access-Control-Request-Method': 'GET' },",
				'});',
				'console.log(response.status, Object.fromEntries(response.headers));',
			].join('\n'),
		);
		expect(python).toContain(
			'    headers={"Origin": "http://127.0.0.1:4321", "Access-Control-Request-Method": "GET"},\n',
		);
		expect(python).not.toContain('sys');
		expect(httpie).toBe(
			'http --ignore-stdin --headers OPTIONS http://127.0.0.1:5010/api/v2/users Origin:http://127.0.0.1:4321 Access-Control-Request-Method:GET',
		);
	});

	it('sends every header parameter in PHP, one string each, beside the key', () => {
		const php = codeSamples({
			method: 'get',
			server: 'http://127.0.0.1:5010',
			path: '/api/v2/users',
			query: [],
			headers: [
				{ name: 'Accept', value: 'application/json' },
				{ name: 'Prefer', value: 'code=401' },
			],
			auth: bearer,
		}).find(({ label }) => label === 'PHP')?.code;
		expect(php).toContain(
			"    CURLOPT_HTTPHEADER => ['Accept: application/json', 'Prefer: code=401', 'Authorization: Bearer ' . $key],\n",
		);
	});

	it('escapes a server address with quotes for each language, and adds query parameters', () => {
		const [curl, node, python, httpie] = codeSamples({
			method: 'post',
			server: "http://127.0.0.1:5010/it's",
			path: '/api/v2/users',
			query: [{ name: 'role', value: 'a b' }],
			auth: undefined,
		}).map(({ code }) => code);
		expect(curl).toBe(`curl -X POST 'http://127.0.0.1:5010/it'\\''s/api/v2/users?role=a+b'`);
		expect(node).toContain(`fetch('http://127.0.0.1:5010/it\\'s/api/v2/users?role=a+b', {`);
		expect(node).not.toContain('headers');
		expect(python).toContain(`    "http://127.0.0.1:5010/it's/api/v2/users?role=a+b",`);
		expect(httpie).toBe(
			`http --ignore-stdin POST 'http://127.0.0.1:5010/it'\\''s/api/v2/users?role=a+b'`,
		);
	});

	it('an operation without a key has no header line in any sample', () => {
		const [, node, python] = codeSamples({
			method: 'get',
			server: 'http://127.0.0.1:5010',
			path: '/api/v2/health',
			query: [],
		}).map(({ code }) => code);
		expect(node).toBe(
			[
				"const response = await fetch('http://127.0.0.1:5010/api/v2/health', {",
				"  method: 'GET',",
				'});',
				'console.log(response.status, JSON.stringify(await response.json(), null, 2));',
			].join('\n'),
		);
		expect(python).toBe(
			[
				'import os',
				'import requests',
				'',
				'response = requests.request(',
				'    "GET",',
				'    "http://127.0.0.1:5010/api/v2/health",',
				'    timeout=10,',
				')',
				'print(response.status_code, response.json())',
			].join('\n'),
		);
	});

	it('quotes a header parameter with a space in double quotes for curl and HTTPie', () => {
		const [curl, , , httpie] = codeSamples({
			method: 'get',
			server: 'http://127.0.0.1:5010',
			path: '/api/v2/users',
			query: [],
			headers: [{ name: 'Prefer', value: 'code=401, example=console-key' }],
		}).map(({ code }) => code);
		expect(curl).toBe(
			'curl \\\n  -H "Prefer: code=401, example=console-key" \\\n  http://127.0.0.1:5010/api/v2/users',
		);
		expect(httpie).toBe(
			'http --ignore-stdin GET http://127.0.0.1:5010/api/v2/users "Prefer:code=401, example=console-key"',
		);
	});

	it('writes a header name with quotes and a backslash as a string every language reads back', () => {
		const [, node, python, , go, ruby, php, java] = codeSamples({
			method: 'get',
			server: 'http://127.0.0.1:5010',
			path: '/api/v2/users',
			query: [],
			auth: { header: `X-"Odd'\\Key`, prefix: '' },
		}).map(({ code }) => code);
		expect(node).toContain(`  headers: { 'X-"Odd\\'\\\\Key': \`\${process.env.API_KEY}\` },\n`);
		expect(go).toContain(`    request.Header.Set("X-\\"Odd'\\\\Key", ""+key)\n`);
		expect(ruby).toContain(`request['X-"Odd\\'\\\\Key'] = '' + ENV['API_KEY']\n`);
		expect(php).toContain(`    CURLOPT_HTTPHEADER => ['X-"Odd\\'\\\\Key: ' . $key],\n`);
		expect(java).toContain(`            .header("X-\\"Odd'\\\\Key", "" + key)\n`);
		expect(python).toContain(`    headers={"X-\\"Odd'\\\\Key": "" + os.environ["API_KEY"]},\n`);
	});
});

describe('sampleUrl', () => {
	it('joins a server written with trailing slashes to the path with one slash', () => {
		expect(
			sampleUrl({
				method: 'get',
				server: 'http://127.0.0.1:5010//',
				path: '/api/v2/users',
				query: [],
			}),
		).toBe('http://127.0.0.1:5010/api/v2/users');
	});
});

describe('authHeader', () => {
	it('reads the header a security scheme puts the key in', () => {
		expect(authHeader({ type: 'http', scheme: 'Bearer' })).toEqual(bearer);
		expect(authHeader({ type: 'apiKey', in: 'header', name: 'X-Key' })).toEqual({
			header: 'X-Key',
			prefix: '',
		});
		expect(authHeader({ type: 'apiKey', in: 'query', name: 'key' })).toBeUndefined();
		expect(authHeader({ type: 'http', scheme: 'basic' })).toBeUndefined();
	});

	it('reads no header from a scheme samples cannot send a key for', () => {
		expect(authHeader({ type: 'http' })).toBeUndefined();
		expect(authHeader({ type: 'openIdConnect', scheme: 'bearer' })).toBeUndefined();
		expect(authHeader({ type: 'oauth2', in: 'header', name: 'X-Key' })).toBeUndefined();
	});
});

describe('the Go, Ruby, PHP and Java samples of a request without a key or headers', () => {
	const bare = {
		server: 'http://127.0.0.1:5010',
		path: '/api/v2/users',
		query: [],
		headers: [],
	};
	/** The four newer languages' samples, by label. */
	const newer = (request: SampleRequest): Record<string, string> =>
		Object.fromEntries(
			codeSamples(request)
				.filter(({ label }) => ['Go', 'Ruby', 'PHP', 'Java'].includes(label))
				.map(({ label, code }) => [label, code]),
		);

	it('for a GET: no key check, no header list, the body printed', () => {
		expect(newer({ ...bare, method: 'GET' })).toEqual({
			Go: [
				'package main',
				'',
				'import (',
				'    "fmt"',
				'    "io"',
				'    "net/http"',
				')',
				'',
				'func main() {',
				'    request, err := http.NewRequest("GET", "http://127.0.0.1:5010/api/v2/users", nil)',
				'    if err != nil {',
				'        panic(err)',
				'    }',
				'    response, err := http.DefaultClient.Do(request)',
				'    if err != nil {',
				'        panic(err)',
				'    }',
				'    defer response.Body.Close()',
				'    answer, err := io.ReadAll(response.Body)',
				'    if err != nil {',
				'        panic(err)',
				'    }',
				'    fmt.Println(response.StatusCode, string(answer))',
				'}',
			].join('\n'),
			Ruby: [
				"require 'net/http'",
				'',
				"uri = URI('http://127.0.0.1:5010/api/v2/users')",
				'request = Net::HTTP::Get.new(uri)',
				'response = Net::HTTP.start(uri.hostname, uri.port) { |http| http.request(request) }',
				'puts response.code, response.body',
			].join('\n'),
			PHP: [
				'<?php',
				"$curl = curl_init('http://127.0.0.1:5010/api/v2/users');",
				'curl_setopt_array($curl, [',
				"    CURLOPT_CUSTOMREQUEST => 'GET',",
				'    CURLOPT_RETURNTRANSFER => true,',
				']);',
				'$answer = curl_exec($curl);',
				'if ($answer === false) {',
				'    fwrite(STDERR, curl_error($curl) . PHP_EOL);',
				'    exit(1);',
				'}',
				"echo curl_getinfo($curl, CURLINFO_RESPONSE_CODE), ' ', $answer, PHP_EOL;",
			].join('\n'),
			Java: [
				'import java.net.URI;',
				'import java.net.http.HttpClient;',
				'import java.net.http.HttpRequest;',
				'import java.net.http.HttpResponse;',
				'',
				'public class Main {',
				'    public static void main(String[] args) throws Exception {',
				'        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:5010/api/v2/users"))',
				'            .method("GET", HttpRequest.BodyPublishers.noBody())',
				'            .build();',
				'        HttpResponse<String> response = HttpClient.newHttpClient()',
				'            .send(request, HttpResponse.BodyHandlers.ofString());',
				'        System.out.println(response.statusCode() + " " + response.body());',
				'    }',
				'}',
			].join('\n'),
		});
	});

	it('for a HEAD: no body read, the status and headers printed', () => {
		expect(newer({ ...bare, method: 'HEAD', body: false })).toEqual({
			Go: [
				'package main',
				'',
				'import (',
				'    "fmt"',
				'    "net/http"',
				')',
				'',
				'func main() {',
				'    request, err := http.NewRequest("HEAD", "http://127.0.0.1:5010/api/v2/users", nil)',
				'    if err != nil {',
				'        panic(err)',
				'    }',
				'    response, err := http.DefaultClient.Do(request)',
				'    if err != nil {',
				'        panic(err)',
				'    }',
				'    defer response.Body.Close()',
				'    fmt.Println(response.StatusCode, response.Header)',
				'}',
			].join('\n'),
			Ruby: [
				"require 'net/http'",
				'',
				"uri = URI('http://127.0.0.1:5010/api/v2/users')",
				'request = Net::HTTP::Head.new(uri)',
				'response = Net::HTTP.start(uri.hostname, uri.port) { |http| http.request(request) }',
				'puts response.code, response.to_hash',
			].join('\n'),
			PHP: [
				'<?php',
				"$curl = curl_init('http://127.0.0.1:5010/api/v2/users');",
				'curl_setopt_array($curl, [',
				'    CURLOPT_NOBODY => true,',
				'    CURLOPT_HEADER => true,',
				'    CURLOPT_RETURNTRANSFER => true,',
				']);',
				'$answer = curl_exec($curl);',
				'if ($answer === false) {',
				'    fwrite(STDERR, curl_error($curl) . PHP_EOL);',
				'    exit(1);',
				'}',
				"echo curl_getinfo($curl, CURLINFO_RESPONSE_CODE), ' ', $answer, PHP_EOL;",
			].join('\n'),
			Java: [
				'import java.net.URI;',
				'import java.net.http.HttpClient;',
				'import java.net.http.HttpRequest;',
				'import java.net.http.HttpResponse;',
				'',
				'public class Main {',
				'    public static void main(String[] args) throws Exception {',
				'        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:5010/api/v2/users"))',
				'            .method("HEAD", HttpRequest.BodyPublishers.noBody())',
				'            .build();',
				'        HttpResponse<String> response = HttpClient.newHttpClient()',
				'            .send(request, HttpResponse.BodyHandlers.ofString());',
				'        System.out.println(response.statusCode() + " " + response.headers().map());',
				'    }',
				'}',
			].join('\n'),
		});
	});

	it('the users request the guides and view pages share: GET with the bearer key', () => {
		expect(usersSampleRequest('http://127.0.0.1:5010')).toEqual({
			method: 'GET',
			server: 'http://127.0.0.1:5010',
			path: '/api/v2/users',
			query: [],
			auth: { header: 'Authorization', prefix: 'Bearer ' },
		});
	});
});
