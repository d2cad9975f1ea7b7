// Run by the transport suite with NODE_EXTRA_CA_CERTS set (Node reads it once, at start): one GET through
// the transport named in argv[2] ('node' or 'fetch') to the HTTPS URL in argv[3], printed as JSON.
import { send as fetchSend } from '../../../src/core/net/fetch-transport.js';
import { send as nodeSend } from '../../../src/core/net/node-transport.js';

const [name, url = ''] = process.argv.slice(2);
const send = name === 'node' ? nodeSend : fetchSend;
const res = await send({ url, signal: AbortSignal.timeout(10_000) });
process.stdout.write(JSON.stringify({ status: res.status, etag: res.headers.get('etag'), body: res.body }));
