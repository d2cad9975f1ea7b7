// The shop inside the provider: React decides the structure from the atoms (useFlag), the tags render the flag
// values and report exposures when seen, and <feature-hit> sends the goal.
import type { JSX } from 'react';
import { useFlag } from './client-context.js';
import { Flag } from './flag.js';

const PRICE = 120;

const euros = (amount: number): string => `${amount.toFixed(2)} €`;

/** The shipping banner: shown when showBanner is true; its text is the bannerText flag. */
const Banner = (): JSX.Element | null => {
  const show = useFlag('showBanner', false);
  if (!show.ready || !show.value) return null;
  return (
    <p className="banner">
      <Flag flagKey="bannerText" default="Free shipping" />
    </p>
  );
};

/** The price, discounted by discountPercent (a rollout for plan=premium). */
const Price = (): JSX.Element => {
  const discount = useFlag('discountPercent', 0);
  if (!discount.ready || discount.value <= 0) return <p className="price">{euros(PRICE)}</p>;
  return (
    <p className="price">
      <s>{euros(PRICE)}</s> <strong>{euros(PRICE * (1 - discount.value / 100))}</strong>{' '}
      <span className="tag">
        Premium −<Flag flagKey="discountPercent" default="0" /> %
      </span>
    </p>
  );
};

/** The A/B-tested button: its color from btnColor (React), its text the btnText tag. */
const BuyButton = ({ onAdd }: { onAdd: () => void }): JSX.Element => {
  const color = useFlag('btnColor', '#57606a');
  return (
    <p>
      <feature-hit type="event" action="add_to_cart">
        <button
          type="button"
          className="buy"
          style={{ background: color.value, visibility: color.ready ? 'visible' : 'hidden' }}
          onClick={onAdd}
        >
          <Flag flagKey="btnText" default="Add to cart" />
        </button>
      </feature-hit>
    </p>
  );
};

/** The product card; `cart` is the line under the button. */
export const Shop = ({ onAdd, cart }: { onAdd: () => void; cart: string }): JSX.Element => (
  <>
    <Banner />
    <section className="card" aria-labelledby="product-title">
      <h2 id="product-title">Trail running shoe</h2>
      <p>Light, grippy and made for muddy mornings.</p>
      <Price />
      <BuyButton onAdd={onAdd} />
      <p className="muted" role="status">
        {cart}
      </p>
    </section>
  </>
);
