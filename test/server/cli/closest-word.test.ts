// The edit distance behind the CLI's "did you mean …?" (closest-word.ts): a swap of two neighbouring letters is
// one edit, and a word is suggested only when it is near enough to be what was meant. Expected distances are
// counted by hand.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { closestWord, editDistance } from '../../../server/src/cli/closest-word.js';

void it('counts insertions, deletions, substitutions and swaps of neighbours, one edit each', () => {
  assert.equal(editDistance('report', 'report'), 0);
  assert.equal(editDistance('reprot', 'report'), 1, 'a swap');
  assert.equal(editDistance('evn', 'env'), 1, 'a swap');
  assert.equal(editDistance('creat', 'create'), 1, 'a letter missing');
  assert.equal(editDistance('listt', 'list'), 1, 'a letter too many');
  assert.equal(editDistance('lust', 'list'), 1, 'a letter changed');
  assert.equal(editDistance('kitten', 'sitting'), 3, 'k→s, e→i, +g');
  assert.equal(editDistance('', 'abc'), 3);
  assert.equal(editDistance('ca', 'abc'), 3, 'the optimal string alignment form: no edit of a swapped pair');
});

void it('suggests the nearest word within 2 edits and a third of the length, else nothing', () => {
  const commands = ['serve', 'start', 'demo', 'account', 'env', 'report', 'access', 'campaign'];
  assert.equal(closestWord('reprot', commands), 'report');
  assert.equal(closestWord('REPORT', commands), 'report', 'case is a typo too');
  assert.equal(closestWord('acount', commands), 'account');
  assert.equal(closestWord('campain', commands), 'campaign');
  assert.equal(closestWord('frobnicate', commands), null);
  assert.equal(closestWord('rpt', commands), null, '3 edits from report');
  assert.equal(closestWord('ls', ['list', 'show']), null, 'too short to be sure of a 2-edit guess');
  assert.equal(closestWord('li', ['list', 'show']), null, 'a prefix alone is not a near word');
  assert.equal(closestWord('of', ['on', 'off']), 'off', 'at the same distance, the word begun');
  assert.equal(closestWord('x', []), null);
});
