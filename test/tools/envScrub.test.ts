import assert from 'node:assert/strict';
import { NodeCommandRunner } from '../../src/node/processRunner';
import { scrubbedEnv } from '../../src/node/env';

describe('commands never see credentials', () => {
  it('scrubbedEnv drops credential-looking names and named extras, keeps the rest', () => {
    const env = scrubbedEnv(
      {
        PATH: '/bin',
        OPENAI_API_KEY: 'sk-1',
        GITHUB_TOKEN: 't',
        MY_SECRET: 's',
        DB_PASSWORD: 'p',
        CUSTOM: 'c',
        HOME: '/h',
      },
      ['CUSTOM'],
    );
    assert.deepEqual(env, { PATH: '/bin', HOME: '/h' });
  });

  it('drops shell start-up hooks, so no exported function or BASH_ENV file replaces a judged program', async () => {
    assert.deepEqual(scrubbedEnv({ PATH: '/bin', BASH_ENV: '/x', ENV: '/y', 'BASH_FUNC_cat%%': '() { :; }' }), {
      PATH: '/bin',
    });
    const before = process.env['BASH_FUNC_cat%%'];
    process.env['BASH_FUNC_cat%%'] = '() { echo replaced; }';
    try {
      const r = await new NodeCommandRunner('/bin/bash').run('cat /dev/null; echo done', {
        cwd: process.cwd(),
        timeoutMs: 10_000,
        maxOutputBytes: 1 << 20,
      });
      assert.equal(r.stdout, 'done\n');
    } finally {
      if (before === undefined) delete process.env['BASH_FUNC_cat%%'];
      else process.env['BASH_FUNC_cat%%'] = before;
    }
  });

  it('a command run by the default runner cannot print the API key', async () => {
    const before = process.env['OPENAI_API_KEY'];
    process.env['OPENAI_API_KEY'] = 'sk-planwise-test-do-not-leak';
    try {
      const runner = new NodeCommandRunner();
      const r = await runner.run('env', { cwd: process.cwd(), timeoutMs: 10_000, maxOutputBytes: 1 << 20 });
      assert.equal(r.exitCode, 0);
      assert.ok(r.stdout.includes('PATH='), 'the ordinary environment is there');
      assert.ok(!r.stdout.includes('sk-planwise-test-do-not-leak'));
    } finally {
      if (before === undefined) delete process.env['OPENAI_API_KEY'];
      else process.env['OPENAI_API_KEY'] = before;
    }
  });
});
