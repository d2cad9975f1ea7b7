// The transport suite against `fetch` (#transport in browsers and by default), here Node's own fetch.
import { send } from '../../../src/core/net/fetch-transport.js';
import { openStream } from '../../../src/core/net/fetch-stream.js';
import { transportSuite } from './transport.suite.js';

transportSuite('fetch', send, openStream);
