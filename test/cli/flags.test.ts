import assert from 'node:assert/strict';
import { DEFAULT_BASE_URL, isLoopback, resolveModelSettings, type RunFlags } from '../../src/cli/compose';
import { parseRunFlags } from '../../src/cli/commands/plan';
import { runCli } from './cliHarness';

function flags(args: string[]): RunFlags {
  const r = parseRunFlags(args);
  if ('error' in r || 'help' in r) throw new Error(`unexpected: ${JSON.stringify(r)}`);
  return r;
}

describe('plan/resume flags and model settings', () => {
  it('parses every flag, in both --flag value and --flag=value forms', () => {
    const f = flags([
      '--workspace=ws',
      '--base-url',
      'http://h/v1',
      '--model',
      'm',
      '--build-model=b',
      '--api-key-env',
      'K',
      '--json',
      '--non-interactive',
      '--approve',
      'fresh',
      '--untrusted',
      '--allow-command',
      'npm test',
      '--allow-command=make *',
      '--context-window',
      '32000',
      'fix',
      '--',
      '--not-a-flag',
    ]);
    assert.deepEqual(f, {
      workspace: 'ws',
      baseUrl: 'http://h/v1',
      model: 'm',
      buildModel: 'b',
      apiKeyEnv: 'K',
      json: true,
      interactive: false,
      approve: 'fresh_context',
      untrusted: true,
      verbose: false,
      allowCommands: ['npm test', 'make *'],
      mcpTools: [],
      mcpAlways: [],
      contextWindow: 32000,
      positionals: ['fix', '--not-a-flag'],
    });
  });

  it('rejects what it cannot use, saying why', () => {
    const err = (args: string[]) => {
      const r = parseRunFlags(args);
      return 'error' in r ? r.error : undefined;
    };
    assert.equal(err(['--model']), '--model needs a value');
    assert.equal(err(['--interactive', '--non-interactive']), '--interactive and --non-interactive exclude each other');
    assert.equal(err(['--json=yes']), '--json takes no value');
    assert.match(err(['--api-key-env', 'sk-abc']) ?? '', /needs a variable name/);
    assert.match(err(['--context-window', 'big']) ?? '', /at least 1000/);
    assert.deepEqual(parseRunFlags(['-h']), { help: true });
  });

  it('reads the repository-context flags, and plan --help names them', async () => {
    const f = flags([
      '--no-instructions',
      '--mcp-tool',
      'docs/search',
      '--mcp-tool=issues/*',
      '--mcp-always',
      'docs/save',
    ]);
    assert.equal(f.noInstructions, true);
    assert.deepEqual(f.mcpTools, ['docs/search', 'issues/*']);
    assert.deepEqual(f.mcpAlways, ['docs/save']);
    const r = parseRunFlags(['--mcp-tool', 'search']);
    assert.match('error' in r ? r.error : '', /--mcp-tool takes server\/tool or server\/\*, not 'search'/);
    const a = parseRunFlags(['--mcp-always', 'docs/*']);
    assert.match('error' in a ? a.error : '', /--mcp-always takes server\/tool/);
    const help = await runCli(['plan', '--help']);
    assert.equal(help.code, 0);
    for (const flag of ['--no-instructions', '--mcp-tool SERVER/TOOL', '--mcp-always SERVER/TOOL']) {
      assert.ok(help.stdout.includes(flag), `plan --help shows ${flag}`);
    }
  });

  it('takes defaults from the environment; flags win', () => {
    const env = { OPENAI_BASE_URL: 'http://127.0.0.1:8080/v1', PLANWISE_MODEL: 'env-model', OPENAI_API_KEY: 'k1' };
    const fromEnv = resolveModelSettings(flags([]), env);
    assert.deepEqual(fromEnv, {
      baseURL: 'http://127.0.0.1:8080/v1',
      model: 'env-model',
      apiKey: 'k1',
      keyVariables: ['OPENAI_API_KEY'],
      maxRetries: 3,
      firstByteTimeoutMs: 120_000,
      idleTimeoutMs: 120_000,
    });
    const fromFlags = resolveModelSettings(flags(['--model', 'flag-model', '--base-url', 'http://localhost/v1']), env);
    assert.ok(!('error' in fromFlags));
    assert.equal(fromFlags.model, 'flag-model');
    assert.equal(fromFlags.baseURL, 'http://localhost/v1');
    const ollama = resolveModelSettings(flags([]), { PLANWISE_MODEL: 'qwen' });
    assert.ok(!('error' in ollama));
    assert.equal(ollama.baseURL, DEFAULT_BASE_URL);
    assert.equal(ollama.apiKey, undefined);
  });

  it('needs a key only for endpoints off this machine', () => {
    for (const url of ['http://localhost:1/v1', 'http://127.0.0.1/v1', 'http://127.8.9.10/v1', 'http://[::1]:8/v1']) {
      assert.ok(isLoopback(new URL(url)), url);
    }
    for (const url of ['https://api.openai.com/v1', 'http://10.0.0.2/v1', 'http://localhost.example.com/v1']) {
      assert.ok(!isLoopback(new URL(url)), url);
    }
    const remote = resolveModelSettings(flags(['--base-url', 'https://openrouter.ai/api/v1']), { PLANWISE_MODEL: 'm' });
    assert.ok('error' in remote && /no API key is set/.test(remote.error));
    const named = resolveModelSettings(flags(['--api-key-env', 'MY_KEY']), { PLANWISE_MODEL: 'm' });
    assert.ok(
      'error' in named && named.error === '--api-key-env names MY_KEY, but the environment variable MY_KEY is not set',
    );
    const withNamed = resolveModelSettings(flags(['--api-key-env', 'MY_KEY', '--base-url', 'https://x.dev/v1']), {
      PLANWISE_MODEL: 'm',
      MY_KEY: 'secret',
    });
    assert.ok(!('error' in withNamed));
    assert.deepEqual(withNamed.keyVariables, ['OPENAI_API_KEY', 'MY_KEY']);
  });

  it('completes a base URL without a scheme, rejects one that is not http(s), and a bad retry count', () => {
    const fixed = resolveModelSettings(flags(['--base-url', 'localhost:11434']), { PLANWISE_MODEL: 'm' });
    assert.ok(!('error' in fixed) && fixed.baseURL === 'http://localhost:11434/v1');
    const bad = resolveModelSettings(flags(['--base-url', 'ftp://localhost:11434']), { PLANWISE_MODEL: 'm' });
    assert.ok('error' in bad && /must start with http:\/\/ or https:\/\//.test(bad.error));
    const retries = resolveModelSettings(flags([]), { PLANWISE_MODEL: 'm', PLANWISE_MODEL_RETRIES: 'many' });
    assert.ok('error' in retries && /PLANWISE_MODEL_RETRIES must be a whole number/.test(retries.error));
  });
});
