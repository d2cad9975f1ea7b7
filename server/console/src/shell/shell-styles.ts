// The shell's layout: a header with the account and environment choosers, a menu beside the screen on wide
// windows and behind a Menu button at phone width (360 px).
import { css } from 'lit';

/** Styles of <console-app> only. */
export const shellStyles = css`
  .skip {
    position: absolute;
    left: -999px;
  }
  .skip:focus {
    left: 0.5rem;
    top: 0.5rem;
    z-index: 10;
    background: #fff;
    padding: 0.5rem;
  }
  .top {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.5rem 1rem;
    padding: 0.5rem 1rem;
    background: #fff;
    border-bottom: 1px solid var(--line);
  }
  .brand {
    font-weight: 700;
    font-size: 1.05rem;
    margin-right: auto;
  }
  .choosers {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
  }
  .chooser {
    display: flex;
    align-items: center;
    gap: 0.35rem;
    font-weight: 400;
    margin: 0;
  }
  .chooser span {
    font-size: 0.85rem;
    color: var(--muted);
  }
  .chooser select {
    width: auto;
    max-width: 12rem;
  }
  .menu-toggle {
    display: none;
  }
  .layout {
    display: grid;
    grid-template-columns: 15rem minmax(0, 1fr);
    min-height: calc(100vh - 3.5rem);
  }
  nav {
    border-right: 1px solid var(--line);
    background: #fff;
    padding: 1rem 0.5rem;
  }
  nav ul {
    list-style: none;
    margin: 0;
    padding: 0;
  }
  nav a {
    display: block;
    padding: 0.45rem 0.75rem;
    border-radius: 6px;
    color: inherit;
    text-decoration: none;
  }
  nav a:hover {
    background: var(--soft);
  }
  nav a[aria-current='page'] {
    background: #eef3fd;
    color: var(--primary-dark);
    font-weight: 600;
  }
  .menu-group {
    margin: 1rem 0 0.25rem;
    padding: 0 0.75rem;
    font-size: 0.8rem;
    text-transform: uppercase;
    letter-spacing: 0.04em;
    color: var(--muted);
  }
  main {
    padding: 1.25rem;
    min-width: 0;
  }
  main:focus {
    outline: none;
  }
  .sign-in {
    max-width: 28rem;
    margin: 10vh auto 0;
    padding: 0 1rem;
  }
  .loading {
    padding: 2rem;
  }
  .toast {
    position: fixed;
    bottom: 1rem;
    right: 1rem;
    max-width: min(28rem, calc(100vw - 2rem));
  }
  .toast.shown {
    background: #1f2328;
    color: #fff;
    padding: 0.6rem 0.9rem;
    border-radius: 8px;
  }
  .toast.shown.error {
    background: var(--danger);
  }
  @media (max-width: 760px) {
    .menu-toggle {
      display: inline-flex;
    }
    .layout {
      grid-template-columns: 1fr;
    }
    nav {
      display: none;
      border-right: none;
      border-bottom: 1px solid var(--line);
    }
    nav.open {
      display: block;
    }
    .brand {
      margin-right: 0;
    }
    .choosers {
      width: 100%;
    }
    .chooser select {
      max-width: 9.5rem;
    }
    main {
      padding: 0.75rem;
    }
  }
`;
