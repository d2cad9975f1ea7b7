// A small server-sent events reader for tests (PROTOCOL.md §17): opens a stream with fetch, parses each
// block (`id:`, `event:`, `data:` fields, `:` comments) into a list as it arrives, and closes on demand. Tests
// wait on the list with until(), never with a sleep.

/** One block of the stream: an event's fields, or a comment. */
export interface StreamBlock {
  id?: string;
  event?: string;
  data?: string;
  /** The text of a comment line (`: ping` gives `ping`). */
  comment?: string;
}

/** An opened stream (or the refusal the server answered instead). */
export interface OpenedStream {
  status: number;
  headers: Headers;
  /** The blocks read so far, in order. */
  blocks: StreamBlock[];
  /** The `change` events read so far. */
  changes: () => StreamBlock[];
  /** True once the server ended the stream (or the client closed it). */
  ended: () => boolean;
  /** The JSON body of a refusal (not 200); null for a stream. */
  body: unknown;
  /** Disconnects. */
  close: () => void;
}

const parseBlock = (text: string): StreamBlock => {
  const block: StreamBlock = {};
  for (const line of text.split('\n')) {
    if (line.startsWith(':')) {
      block.comment = line.slice(1).trim();
      continue;
    }
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'id' || field === 'event' || field === 'data') block[field] = value;
  }
  return block;
};

/** Opens `url` as an event stream; resolves once the answer's headers arrived. */
export const openStream = async (
  url: string,
  headers: Record<string, string> = {},
): Promise<OpenedStream> => {
  const controller = new AbortController();
  const res = await fetch(url, { headers, signal: controller.signal });
  const blocks: StreamBlock[] = [];
  let ended = false;
  let body: unknown = null;
  if (res.status !== 200 || res.body === null) {
    const text = await res.text();
    body = text === '' ? null : (JSON.parse(text) as unknown);
    ended = true;
  } else {
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    void (async () => {
      let buffer = '';
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          buffer += decoder.decode(value, { stream: true });
          for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
            blocks.push(parseBlock(buffer.slice(0, end)));
            buffer = buffer.slice(end + 2);
          }
        }
      } catch {
        // Aborted by close(), or the connection dropped: the stream has ended either way.
      }
      ended = true;
    })();
  }
  return {
    status: res.status,
    headers: res.headers,
    blocks,
    changes: () => blocks.filter((block) => block.event === 'change'),
    ended: () => ended,
    body,
    close: () => controller.abort(),
  };
};
