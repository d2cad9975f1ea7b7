// A DNS server on 127.0.0.1 for webhook tests: it answers A and AAAA queries from a table, NXDOMAIN for a name
// it does not know, and nothing at all for a "silent" name (a slow authoritative server), so the deliverer's
// resolver can be pointed at names that resolve to the server's own network without touching real DNS.
import { createSocket, type Socket } from 'node:dgram';
import { once } from 'node:events';

/** The addresses a name resolves to, per family. */
export interface DnsRecords {
  a?: string[];
  aaaa?: string[];
}

/** A running test DNS server. */
export interface TestDnsServer {
  /** `127.0.0.1:port`, for a Resolver's `setServers`. */
  address: string;
  /** The names asked, in order (one entry per query: A and AAAA count apart). */
  asked: string[];
  close(): Promise<void>;
}

const TYPE_A = 1;
const TYPE_AAAA = 28;

/** The 16 bytes of an IPv6 address written with or without `::`. */
const ipv6Bytes = (address: string): Buffer => {
  const [head = '', tail = ''] = address.split('::');
  const split = (part: string): string[] => (part === '' ? [] : part.split(':'));
  const known = [...split(head), ...split(tail)];
  const groups = address.includes('::')
    ? [...split(head), ...Array<string>(8 - known.length).fill('0'), ...split(tail)]
    : known;
  const bytes = Buffer.alloc(16);
  groups.forEach((group, index) => bytes.writeUInt16BE(parseInt(group, 16), index * 2));
  return bytes;
};

/** The question's name and where the question ends. */
const question = (query: Buffer): { name: string; end: number } => {
  const labels: string[] = [];
  let at = 12;
  for (let length = query[at] ?? 0; length > 0; length = query[at] ?? 0) {
    labels.push(query.subarray(at + 1, at + 1 + length).toString('ascii'));
    at += 1 + length;
  }
  return { name: labels.join('.').toLowerCase(), end: at + 5 };
};

/** Starts a DNS server answering from `records`, never answering the names in `silent`. */
export const startDnsServer = async (
  records: Record<string, DnsRecords>,
  silent: ReadonlySet<string> = new Set(),
): Promise<TestDnsServer> => {
  const asked: string[] = [];
  const socket: Socket = createSocket('udp4');
  socket.on('message', (query, from) => {
    const { name, end } = question(query);
    asked.push(name);
    if (silent.has(name)) return;
    const type = query.readUInt16BE(end - 4);
    const known = records[name];
    const rdatas =
      known === undefined
        ? []
        : type === TYPE_A
          ? (known.a ?? []).map((address) => Buffer.from(address.split('.').map(Number)))
          : type === TYPE_AAAA
            ? (known.aaaa ?? []).map(ipv6Bytes)
            : [];
    const header = Buffer.alloc(12);
    query.copy(header, 0, 0, 2); // the id
    // An authoritative answer to a recursive query, NXDOMAIN for an unknown name.
    header.writeUInt16BE(0x8580 | (known === undefined ? 3 : 0), 2);
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(rdatas.length, 6);
    const answers = rdatas.map((rdata) => {
      const record = Buffer.alloc(12);
      record.writeUInt16BE(0xc00c, 0); // the question's name
      record.writeUInt16BE(type, 2);
      record.writeUInt16BE(1, 4); // IN
      record.writeUInt32BE(60, 6);
      record.writeUInt16BE(rdata.length, 10);
      return Buffer.concat([record, rdata]);
    });
    socket.send(Buffer.concat([header, query.subarray(12, end), ...answers]), from.port, from.address);
  });
  socket.bind(0, '127.0.0.1');
  await once(socket, 'listening');
  return {
    address: `127.0.0.1:${socket.address().port}`,
    asked,
    close: () =>
      new Promise<void>((resolve) => {
        socket.close(() => resolve());
      }),
  };
};
