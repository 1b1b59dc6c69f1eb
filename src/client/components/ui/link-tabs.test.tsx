import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { LinkTabList, LinkTabPanel, type LinkTab } from './link-tabs';

const TABS: readonly LinkTab<'a' | 'b' | 'c'>[] = [
  { value: 'a', label: 'First', href: '/page' },
  { value: 'b', label: 'Second', href: '/page?tab=b' },
  { value: 'c', label: 'Third', href: '/page?tab=c' },
];

function Harness({ onSelect }: { onSelect?: (v: string) => void }) {
  const [value, setValue] = useState<'a' | 'b' | 'c'>('a');
  return (
    <>
      <LinkTabList
        tabs={TABS}
        value={value}
        idBase="t"
        onSelect={(v) => {
          onSelect?.(v);
          setValue(v);
        }}
      />
      <LinkTabPanel idBase="t" value={value}>
        Panel {value}
      </LinkTabPanel>
    </>
  );
}

describe('LinkTabList', () => {
  it('is a tablist of links to each tab, the open one selected and in the tab order, tied to its panel', () => {
    render(<Harness />);
    const [first, second] = screen.getAllByRole('tab');
    expect(first).toHaveAttribute('href', '/page');
    expect(second).toHaveAttribute('href', '/page?tab=b');
    expect(first).toHaveAttribute('aria-selected', 'true');
    expect(first).toHaveAttribute('tabindex', '0');
    expect(second).toHaveAttribute('aria-selected', 'false');
    expect(second).toHaveAttribute('tabindex', '-1');
    expect(screen.getByRole('tabpanel', { name: 'First' })).toHaveTextContent('Panel a');
  });

  it('a click switches in place instead of following the link', async () => {
    const onSelect = vi.fn();
    render(<Harness onSelect={onSelect} />);
    const second = screen.getByRole('tab', { name: 'Second' });
    const click = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 });
    fireEvent(second, click);
    expect(click.defaultPrevented).toBe(true);
    expect(onSelect).toHaveBeenCalledWith('b');
    expect(await screen.findByRole('tabpanel', { name: 'Second' })).toHaveTextContent('Panel b');
  });

  it('a Ctrl-click is left to the browser (a new tab)', () => {
    const onSelect = vi.fn();
    render(<Harness onSelect={onSelect} />);
    const click = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0, ctrlKey: true });
    fireEvent(screen.getByRole('tab', { name: 'Second' }), click);
    expect(click.defaultPrevented).toBe(false);
    expect(onSelect).not.toHaveBeenCalled();
  });

  it('the arrow keys, Home and End move to a tab and open it, wrapping around', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    screen.getByRole('tab', { name: 'First' }).focus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Second' })).toHaveFocus();
    expect(screen.getByRole('tab', { name: 'Second' })).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{End}');
    expect(screen.getByRole('tab', { name: 'Third' })).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'First' })).toHaveFocus();
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByRole('tab', { name: 'Third' })).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{Home}');
    expect(screen.getByRole('tabpanel', { name: 'First' })).toHaveTextContent('Panel a');
  });
});
