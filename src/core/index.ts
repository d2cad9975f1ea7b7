// The browser entry: the SDK bound to the browser platform (IndexedDB caches, navigator, page hide).
import { useDefaultPlatform } from './instance.js';
import { browserPlatform } from './platform/browser.js';

useDefaultPlatform(browserPlatform);

export * from './public.js';
