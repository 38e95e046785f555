import assert from 'node:assert/strict';
import { DEFAULT_BUDGETS } from '../../src/core/agent/budgets';
import {
  DEFAULT_SETTINGS,
  budgetOverrides,
  isLocalEndpoint,
  readPlansDirectory,
  readSettings,
  toSessionConfig,
  type SettingKey,
} from '../../src/host/config';

const from = (values: Partial<Record<SettingKey, unknown>>) => (key: SettingKey) => values[key];

describe('host settings', () => {
  it('reads nothing as the defaults, with no problems', () => {
    const { settings, problems } = readSettings(() => undefined);
    assert.deepEqual(settings, DEFAULT_SETTINGS);
    assert.deepEqual(problems, []);
  });

  it('derives budget defaults from the engine defaults (KiB for preview budgets)', () => {
    const b = DEFAULT_SETTINGS.budgets;
    assert.equal(b.blockedCap, DEFAULT_BUDGETS.blockedCap);
    assert.equal(b.previewTurnKiB.plan * 1024, DEFAULT_BUDGETS.previewTurnBytes.plan);
    assert.equal(b.previewTurnKiB.build * 1024, DEFAULT_BUDGETS.previewTurnBytes.build);
  });

  it('takes valid values and normalises the base URL and the plans folder', () => {
    const { settings, problems } = readSettings(
      from({
        baseUrl: 'http://localhost:11434/v1/',
        planningModel: ' qwen2.5-coder:14b ',
        buildModel: 'gpt-4.1-mini',
        contextWindow: 32768,
        'budgets.toolCallsPerTurn': 0,
        'budgets.previewTurnKiB.build': 16,
        plansDirectory: './docs/plans/',
        requireVerifyToComplete: false,
        buildCommandAllowList: ['npm test', ' npm run lint* '],
        defaultAgent: 'build',
      }),
    );
    assert.deepEqual(problems, []);
    assert.equal(settings.baseUrl, 'http://localhost:11434/v1');
    assert.equal(settings.planningModel, 'qwen2.5-coder:14b');
    assert.equal(settings.buildModel, 'gpt-4.1-mini');
    assert.equal(settings.contextWindow, 32768);
    assert.equal(settings.budgets.toolCallsPerTurn, 0);
    assert.equal(settings.budgets.previewTurnKiB.build, 16);
    assert.equal(settings.plansDirectory, 'docs/plans');
    assert.equal(settings.requireVerifyToComplete, false);
    assert.deepEqual(settings.buildCommandAllowList, ['npm test', 'npm run lint*']);
    assert.equal(settings.defaultAgent, 'build');
  });

  const bad: [SettingKey, unknown, RegExp][] = [
    ['baseUrl', 'not a url', /is not a URL/],
    ['baseUrl', 'ftp://example.com', /http:\/\/ or https:\/\//],
    ['baseUrl', 'https://user:sk-secret@example.com/v1', /must not contain a user name or password/],
    ['planningModel', '', /is empty/],
    ['planningModel', 42, /model name/],
    ['contextWindow', 100, /at least 1024/],
    ['budgets.blockedCap', -1, /whole number/],
    ['budgets.loopsPerTurn', 2.5, /whole number/],
    ['plansDirectory', '../outside', /inside the workspace/],
    ['plansDirectory', '/etc/plans', /inside the workspace/],
    ['plansDirectory', 'C:\\plans', /inside the workspace/],
    ['requireVerifyToComplete', 'yes', /true or false/],
    ['buildCommandAllowList', 'npm test', /list of commands/],
    ['defaultAgent', 'chat', /"plan" or "build"/],
  ];
  for (const [key, value, message] of bad) {
    it(`replaces a bad ${key} (${JSON.stringify(value)}) by its default and says why`, () => {
      const { settings, problems } = readSettings(from({ [key]: value }));
      assert.equal(problems.length, 1);
      assert.equal(problems[0]!.key, `planwise.${key}`);
      assert.match(problems[0]!.message, message);
      assert.deepEqual(settings, DEFAULT_SETTINGS);
    });
  }

  it('never repeats a key written into the base URL in the problem message', () => {
    const { problems } = readSettings(from({ baseUrl: 'https://me:sk-abcdef123456@example.com/v1' }));
    assert.doesNotMatch(problems[0]!.message, /sk-abcdef123456/);
  });

  it('keeps the valid entries of an allow-list and reports the others', () => {
    const { settings, problems } = readSettings(from({ buildCommandAllowList: ['npm test', 3, ''] }));
    assert.deepEqual(settings.buildCommandAllowList, ['npm test']);
    assert.equal(problems.length, 2);
  });

  it('turns settings into the engine configuration', () => {
    const { settings } = readSettings(from({ buildModel: '', 'budgets.previewTurnKiB.plan': 10 }));
    let trusted = false;
    const config = toSessionConfig(settings, () => trusted);
    assert.equal(config.planningModel, 'gpt-4.1');
    assert.equal('buildModel' in config, false, 'an empty build model means "the planning model"');
    assert.equal(config.budgets?.previewTurnBytes?.plan, 10 * 1024);
    assert.equal(config.plansDir, '.vtcode/plans');
    assert.equal(config.startAgent, 'plan');
    assert.equal(config.interactive, true);
    assert.equal(config.trusted, false);
    trusted = true;
    assert.equal(config.trusted, true, 'trust granted later is visible to the running session');
  });

  it('maps every budget setting to the engine override of the same meaning', () => {
    const o = budgetOverrides({
      blockedCap: 1,
      toolCallsPerTurn: 2,
      loopsPerTurn: 3,
      sessionToolCalls: 4,
      previewTurnKiB: { plan: 5, build: 6 },
      planningTokenCap: 7,
    });
    assert.deepEqual(o, {
      blockedCap: 1,
      toolCallsPerTurn: 2,
      loopsPerTurn: 3,
      sessionToolCalls: 4,
      planningTokenCap: 7,
      previewTurnBytes: { plan: 5 * 1024, build: 6 * 1024 },
    });
  });

  it('recognises local and private-network endpoints, and no others', () => {
    for (const url of [
      'http://localhost:11434/v1',
      'http://127.0.0.1:1234/v1',
      'http://[::1]:8000/v1',
      'http://192.168.1.20:8000/v1',
      'http://10.0.0.5/v1',
      'http://172.20.1.1/v1',
      'http://gpu-box.local:8000/v1',
    ]) {
      assert.equal(isLocalEndpoint(url), true, url);
    }
    for (const url of [
      'https://api.openai.com/v1',
      'https://openrouter.ai/api/v1',
      'http://172.40.0.1/v1',
      'nonsense',
    ]) {
      assert.equal(isLocalEndpoint(url), false, url);
    }
  });

  // Activation reads plansDirectory alone (for the lenses' selector); it must agree with the full read.
  it('reads plansDirectory alone exactly as the full read does', () => {
    for (const value of [
      undefined,
      null,
      '',
      'docs/plans',
      'docs\\plans',
      '/abs',
      '../outside',
      'a/../..',
      7,
      ['x'],
      ' .vtcode/plans ',
    ]) {
      const get = from({ plansDirectory: value, contextWindow: 5, baseUrl: 'nonsense' });
      assert.equal(readPlansDirectory(get), readSettings(get).settings.plansDirectory, JSON.stringify(value));
    }
  });
});
