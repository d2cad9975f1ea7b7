// The Node entry: the SDK bound to the Node platform (memory caches, node:os, FEATURE_API_URL).
import { useDefaultPlatform } from './instance.js';
import { nodePlatform } from './platform/node.js';

useDefaultPlatform(nodePlatform);

export * from './public.js';
