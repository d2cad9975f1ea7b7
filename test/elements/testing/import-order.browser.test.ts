// feature-ts/testing imported after the live provider was registered cannot replace it (a tag is registered
// once per page): it says so and what to change, instead of leaving a live provider that sends requests.
import { assert } from '@open-wc/testing';
import '../../../src/elements/define.js';
import { FeatureProvider } from '../../../src/elements/index.js';

describe('feature-ts/testing after the live provider', () => {
  it('throws, naming the import to move', async () => {
    const importing = import('../../../src/elements/testing/index.js');
    let message = '';
    await importing.catch((error: unknown) => (message = error instanceof Error ? error.message : ''));
    assert.match(message, /Import 'feature-ts\/testing' first in the test file/);
    assert.strictEqual(customElements.get('feature-provider'), FeatureProvider, 'the live provider stays');
  });
});
