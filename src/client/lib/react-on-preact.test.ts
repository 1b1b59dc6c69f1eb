/**
 * The build runs the app on Preact's compat layer through this module (decision 025); the component tests render
 * with React itself, so the React behaviours it adds are checked here, on Preact.
 */
import { Component, render, type ComponentChild, type Ref } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import React from './react-on-preact';

const h = React.createElement;

let container: HTMLElement;
afterEach(() => {
  render(null, container);
  container.remove();
});
function mount(vnode: ComponentChild) {
  container = document.createElement('div');
  document.body.append(container);
  act(() => render(vnode, container));
}

describe('react-on-preact', () => {
  it('passes ref to a function component as a prop, as React 19 does', () => {
    const Field = (props: { ref?: Ref<HTMLInputElement>; name: string }) => h('input', props);
    const ref: { current: HTMLInputElement | null } = { current: null };
    const seen: unknown[] = [];
    mount(h(Field, { ref, name: 'email' }));
    expect(ref.current).toBeInstanceOf(HTMLInputElement);
    expect(ref.current?.name).toBe('email');
    // A callback ref too (react-hook-form's register hands one).
    act(() => render(h(Field, { ref: (e: HTMLInputElement | null) => void seen.push(e), name: 'code' }), container));
    expect(seen.at(-1)).toBe(container.querySelector('input[name=code]'));
  });

  it('leaves a class component its own ref', () => {
    class Box extends Component {
      render() {
        return h('div', null, 'box');
      }
    }
    const ref: { current: unknown } = { current: null };
    mount(h(Box as never, { ref }));
    expect(ref.current).toBeInstanceOf(Box);
  });

  it('focuses an autoFocus element when it mounts, once, and still sets its ref', () => {
    const ref: { current: HTMLInputElement | null } = { current: null };
    const Form = ({ label }: { label: string }) =>
      h('div', null, h('input', { autoFocus: true, ref, 'aria-label': label }), h('button', null, 'other'));
    mount(h(Form, { label: 'Code' }));
    const input = container.querySelector('input')!;
    expect(document.activeElement).toBe(input);
    expect(ref.current).toBe(input);
    expect(input.hasAttribute('autofocus')).toBe(false);
    // A later render of the same element does not take the focus back.
    container.querySelector('button')!.focus();
    act(() => render(h(Form, { label: 'Recovery code' }), container));
    expect(input.getAttribute('aria-label')).toBe('Recovery code');
    expect(document.activeElement).toBe(container.querySelector('button'));
  });
});
