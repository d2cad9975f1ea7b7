// Registers the three tags from the package's source (Vite bundles them with the app), then renders the app.
// The tags are defined before React creates any of them, so React sees their properties (`consent`, `context`)
// and sets those rather than attributes.
import '../../src/elements/define.js';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app.js';

const root = document.getElementById('root');
if (root === null) throw new Error('index.html has no #root');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
