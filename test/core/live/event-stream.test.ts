// The event-stream parser against WHATWG HTML §9.2.6 ("Interpreting an event stream"): the expected events
// are read off the standard's rules and its examples, not off the parser.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EventStreamParser, type StreamEvent } from '../../../src/core/live/event-stream.js';

/** The events `pieces` dispatch, fed one after another to one parser. */
const parse = (...pieces: string[]): { events: StreamEvent[]; parser: EventStreamParser } => {
  const events: StreamEvent[] = [];
  const parser = new EventStreamParser((event) => events.push(event));
  for (const piece of pieces) parser.feed(piece);
  return { events, parser };
};

void describe('event stream parser (WHATWG HTML §9.2.6)', () => {
  void it('reads the live-update change event of PROTOCOL.md §17', () => {
    const data =
      '{"type":"refetchEvaluation","etag":"\\"b2\\"","lastModified":"Wed, 25 Nov 2026 10:00:00 GMT"}';
    const { events, parser } = parse(`id: 42\nevent: change\ndata: ${data}\n\n`);
    assert.deepEqual(events, [{ type: 'change', data, lastEventId: '42' }]);
    assert.equal(parser.lastEventId, '42');
  });

  void it('joins multi-line data with LF; an event without a type is "message"', () => {
    const { events } = parse('data: YHOO\ndata: +2\ndata: 10\n\n');
    assert.deepEqual(events, [{ type: 'message', data: 'YHOO\n+2\n10', lastEventId: '' }]);
  });

  void it('accepts LF, CR and CRLF line ends, even split between two pieces', () => {
    const { events } = parse('data: a\r', '\ndata: b\rdata: c\r\n\r', '\n', 'data: d\n\n');
    assert.deepEqual(
      events.map((e) => e.data),
      ['a\nb\nc', 'd'],
    );
  });

  void it('keeps a line split anywhere across pieces, and waits for the blank line', () => {
    const { events } = parse('ev', 'ent: cha', 'nge\nda', 'ta: x', '\n');
    assert.deepEqual(events, []);
    const more = parse('ev', 'ent: cha', 'nge\nda', 'ta: x', '\n', '\n');
    assert.deepEqual(more.events, [{ type: 'change', data: 'x', lastEventId: '' }]);
  });

  void it('ignores comments (the ping), unknown fields and a leading byte order mark', () => {
    const { events } = parse('\uFEFF: ping\n\nfoo: bar\ndata: 1\n\n: ping\n\n');
    assert.deepEqual(events, [{ type: 'message', data: '1', lastEventId: '' }]);
  });

  void it('a field without a colon has an empty value; only one space after the colon is dropped', () => {
    const { events } = parse('data\n\ndata:  two spaces\n\ndata:none\n\n');
    assert.deepEqual(
      events.map((e) => e.data),
      ['', ' two spaces', 'none'],
    );
  });

  void it('an event with no data is not dispatched, but its id is kept; ids persist across events', () => {
    const { events, parser } = parse('id: 7\n\ndata: a\n\nid\ndata: b\n\n');
    assert.deepEqual(
      events.map((e) => [e.data, e.lastEventId]),
      [
        ['a', '7'],
        ['b', ''],
      ],
    );
    assert.equal(parser.lastEventId, '');
  });

  void it('an id holding NUL is ignored; retry takes ASCII digits only', () => {
    const { parser } = parse('id: 5\n\nid: 6\u00007\nretry: 3000\n\nretry: 1e4\n\nretry: 10 s\n\n');
    assert.equal(parser.lastEventId, '5');
    assert.equal(parser.retryMs, 3000);
  });

  void it('an event left unfinished at the end of the stream is dropped (the standard: no dispatch at EOF)', () => {
    const { events } = parse('data: half\n');
    assert.deepEqual(events, []);
  });

  void it('reset (a new connection) drops a half-read event and keeps the last id and retry', () => {
    const events: StreamEvent[] = [];
    const parser = new EventStreamParser((event) => events.push(event));
    parser.feed('id: 3\nretry: 500\n\nevent: change\ndata: hal');
    parser.reset();
    parser.feed('\uFEFFdata: b\n\n');
    assert.deepEqual(events, [{ type: 'message', data: 'b', lastEventId: '3' }]);
    assert.equal(parser.retryMs, 500);
  });
});
