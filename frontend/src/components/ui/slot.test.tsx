import { createRef } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Button } from './button';

describe('Button asChild (Slot)', () => {
  it('renders the child with the button classes joined to its own, both click handlers and both refs', async () => {
    const buttonClick = vi.fn();
    const linkClick = vi.fn((event: { preventDefault: () => void }) => event.preventDefault());
    const buttonRef = createRef<HTMLButtonElement>();
    const linkRef = createRef<HTMLAnchorElement>();
    render(
      <Button asChild variant="ghost" className="w-full" onClick={buttonClick} ref={buttonRef} style={{ color: 'red', margin: 1 }}>
        <a href="/x" className="own" onClick={linkClick} ref={linkRef} style={{ color: 'blue' }}>
          Ir
        </a>
      </Button>,
    );
    const link = screen.getByRole('link', { name: 'Ir' });
    expect(link).toHaveAttribute('href', '/x');
    expect(link).toHaveAttribute('data-slot', 'button');
    expect(link.className).toMatch(/^inline-flex .*w-full own$/);
    expect(link).toHaveStyle({ color: 'rgb(0, 0, 255)', margin: '1px' });
    await userEvent.click(link);
    expect(linkClick).toHaveBeenCalledOnce();
    expect(buttonClick).toHaveBeenCalledOnce();
    expect(linkClick.mock.invocationCallOrder[0]).toBeLessThan(buttonClick.mock.invocationCallOrder[0]!);
    expect(buttonRef.current as HTMLElement | null).toBe(link);
    expect(linkRef.current).toBe(link);
  });
});
