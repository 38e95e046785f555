import assert from 'node:assert/strict';
import {
  CANCEL_WHOLE_MESSAGE,
  EXIT_PHRASES,
  EXIT_WHOLE_MESSAGE,
  SHORT_CONFIRMATIONS,
  STAY_PHRASES,
  STAY_WHOLE_MESSAGE,
  detectIntent,
  intentToDecision,
  normalizeIntentText,
  type Intent,
} from '../../src/core/lifecycle/intents';

type Case = readonly [message: string, intent: Intent, matched?: string];

function check(cases: readonly Case[], opts?: { afterImplementQuestion?: boolean }): void {
  for (const [message, intent, matched] of cases) {
    const got = detectIntent(message, opts);
    assert.equal(got.intent, intent, `${JSON.stringify(message)} should be ${intent}, got ${got.intent}`);
    if (matched !== undefined) assert.equal(got.matched, matched, `${JSON.stringify(message)} matched`);
    if (intent === 'none') assert.equal(got.matched, undefined);
  }
}

describe('normalizeIntentText', () => {
  it('lower-cases, turns non-alphanumerics into spaces, collapses and trims', () => {
    assert.equal(normalizeIntentText("  Don't   IMPLEMENT!!  "), 'don t implement');
    assert.equal(normalizeIntentText('ship-it.'), 'ship it');
    assert.equal(normalizeIntentText('\tLGTM\n'), 'lgtm');
    assert.equal(normalizeIntentText('/plan off'), 'plan off');
    assert.equal(normalizeIntentText('...'), '');
    assert.equal(normalizeIntentText('Step 2: edit_file → src/a.ts'), 'step 2 edit file src a ts');
  });

  it('keeps non-ASCII letters and digits as word characters', () => {
    assert.equal(normalizeIntentText('Überprüfe   Plan 2'), 'überprüfe plan 2');
  });
});

describe('detectIntent: the literals of rules §6', () => {
  it('every stay phrase is stay, alone and inside a sentence', () => {
    for (const phrase of STAY_PHRASES) {
      check([
        [phrase, 'stay', phrase],
        [`Please, ${phrase.toUpperCase()} for now.`, 'stay'],
      ]);
    }
    check([
      ['stay in planning', 'stay', 'stay in planning'],
      ['stay in planning workflow', 'stay', 'stay in planning workflow'],
      ['keep planning', 'stay'],
      ['continue planning', 'stay'],
      ['do not implement', 'stay'],
      ["don't implement", 'stay', 'don t implement'],
      ['not ready to implement', 'stay', 'not ready to implement'],
      ['edit the plan', 'stay'],
      ['revise the plan', 'stay'],
    ]);
  });

  it('bare edit and revise are stay only as the whole message', () => {
    for (const word of STAY_WHOLE_MESSAGE) check([[word, 'stay', word]]);
    check([
      ['Edit.', 'stay', 'edit'],
      ['  REVISE! ', 'stay', 'revise'],
      ['edit step 2 to use the cache', 'none'],
      ['please revise step 3', 'none'],
      ['the credited edits are fine', 'none'],
      ['revised numbers look odd', 'none'],
    ]);
  });

  it('cancel phrases are cancel only as the whole message', () => {
    for (const phrase of CANCEL_WHOLE_MESSAGE) check([[phrase, 'cancel', phrase]]);
    check([
      ['No.', 'cancel', 'no'],
      ['N', 'cancel', 'n'],
      ['Cancel plan!', 'cancel', 'cancel plan'],
      ['abandon', 'cancel'],
      ['Abandon plan', 'cancel'],
      ['no problem, tell me more about step 2', 'none'],
      ['cancel the timer in step 2 instead', 'none'],
      ['the n+1 query worries me', 'none'],
      ['abandoned branches should be listed', 'none'],
    ]);
  });

  it('/plan off is cancel, tested on the raw text', () => {
    check([
      ['/plan off', 'cancel', '/plan off'],
      ['  /PLAN   off ', 'cancel', '/plan off'],
      ['plan off', 'none'],
      ['/plan offline mode', 'none'],
      ['/plan on', 'none'],
    ]);
  });

  it('every exit phrase is exit, alone and inside a sentence', () => {
    for (const phrase of EXIT_PHRASES) {
      check([
        [phrase, 'exit', phrase],
        [`Great work. ${phrase.toUpperCase()}!`, 'exit'],
      ]);
    }
    check([
      ['Implement', 'exit', 'implement'],
      ['approve', 'exit'],
      ['Approved.', 'exit', 'approved'],
      ['LGTM', 'exit', 'lgtm'],
      ['ship it!', 'exit', 'ship it'],
      ['looks good', 'exit', 'looks good'],
      ['accept the plan', 'exit'],
      ['implement the plan', 'exit'],
      ['go ahead and implement', 'exit'],
      ['start implementing', 'exit', 'start implementing'],
      ['execute the plan', 'exit', 'execute the plan'],
    ]);
  });

  it('yes, go and start are exit only as the whole message', () => {
    for (const word of EXIT_WHOLE_MESSAGE) check([[word, 'exit', word]]);
    check([
      ['Yes!', 'exit', 'yes'],
      ['GO', 'exit', 'go'],
      ['start.', 'exit', 'start'],
      ['yes but change step 2', 'none'],
      ['yes please', 'none'],
      ['go through the tests again', 'none'],
      ['where do we start', 'none'],
      ['the start script needs a flag', 'none'],
    ]);
  });

  it('short confirmations are exit only right after an implement question', () => {
    for (const phrase of SHORT_CONFIRMATIONS) {
      check([[phrase, 'exit', phrase]], { afterImplementQuestion: true });
      check([[phrase, 'none']], { afterImplementQuestion: false });
      check([[phrase, 'none']]);
    }
    check(
      [
        ['OK', 'exit', 'ok'],
        ['Proceed.', 'exit', 'proceed'],
        ['Do it!', 'exit', 'do it'],
        ['sounds good', 'exit', 'sounds good'],
        ['continue with step 2 only', 'none'],
        ['ok, do it', 'none'],
        ['okay', 'none'],
      ],
      { afterImplementQuestion: true },
    );
  });

  it('the two sentences of the spec', () => {
    check([
      ['The implementation details are unclear.', 'none'],
      ['I disapprove, keep planning', 'stay', 'keep planning'],
    ]);
  });
});

describe('detectIntent: priority and whole-word matching', () => {
  it('stay wins over exit and over cancel, whatever the order', () => {
    check([
      ['lgtm but keep planning', 'stay', 'keep planning'],
      ['keep planning, looks good otherwise', 'stay'],
      ["don't implement yet, revise the plan", 'stay'],
      ['approve the idea but stay in planning', 'stay', 'stay in planning'],
      ['no, keep planning', 'stay'],
      ['ship it? not ready to implement', 'stay', 'not ready to implement'],
    ]);
    check([['continue planning', 'stay']], { afterImplementQuestion: true });
  });

  it('cancel wins over exit phrases and confirmations', () => {
    check([['no', 'cancel']], { afterImplementQuestion: true });
  });

  it('exit wins over a short confirmation', () => {
    check([['ok', 'exit', 'ok']], { afterImplementQuestion: true });
    check([['ok lgtm', 'exit', 'lgtm']]);
  });

  it('words that merely contain a phrase are not matches', () => {
    check([
      ['I disapprove', 'none'],
      ['approval process docs', 'none'],
      ['the implementation details are unclear', 'none'],
      ['implementing this needs a migration', 'none'],
      ['the implementer should read the docs', 'none'],
      ['reapproved items', 'none'],
      ['the lgtmbot comment', 'none'],
      ['shipit is a tool', 'none'],
      ['goal: faster tests', 'none'],
      ['yesterday it failed', 'none'],
      ['noise in the output', 'none'],
      ['restart the server in step 4', 'none'],
      ['keeping planning notes short', 'none'],
      ['the good looks of the UI', 'none'],
    ]);
  });

  it('a negated exit phrase is not an exit (deliberately conservative)', () => {
    check([
      ["don't approve yet", 'none'],
      ['do not approve this', 'none'],
      ['I never approved that step', 'none'],
      ["you can't implement step 3 that way", 'none'],
      ['not approved', 'none'],
      ['dont implement', 'none'],
      ["this isn't approved, but implement the rest", 'exit', 'implement'],
    ]);
  });

  it('no, and no way, only cancel as the whole message', () => {
    check([
      ['no way, implement it', 'exit', 'implement'],
      ['no, implement it', 'exit', 'implement'],
      ['no way', 'none'],
      ['nope', 'none'],
    ]);
  });

  it('empty or punctuation-only input is no intent', () => {
    check([
      ['', 'none'],
      ['   ', 'none'],
      ['?!', 'none'],
    ]);
    check([['...', 'none']], { afterImplementQuestion: true });
  });
});

describe('intentToDecision', () => {
  it('maps stay to revise with the message as feedback, never to an approval', () => {
    assert.deepEqual(intentToDecision('stay', '  keep planning: split step 2  '), {
      decision: 'revise',
      feedback: 'keep planning: split step 2',
    });
    assert.deepEqual(intentToDecision('stay'), { decision: 'revise' });
    assert.deepEqual(intentToDecision('stay', '   '), { decision: 'revise' });
  });

  it('maps cancel to cancel and exit to execute, without feedback', () => {
    assert.deepEqual(intentToDecision('cancel', 'no'), { decision: 'cancel' });
    assert.deepEqual(intentToDecision('exit', 'lgtm'), { decision: 'execute' });
  });

  it('gives no decision for no intent', () => {
    assert.equal(intentToDecision('none', 'what about step 3?'), undefined);
  });

  it('composes with detectIntent for typed messages', () => {
    const message = 'LGTM, but keep planning: step 2 misses the migration';
    const { intent } = detectIntent(message);
    assert.deepEqual(intentToDecision(intent, message), { decision: 'revise', feedback: message });
  });
});
