import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { LandingPage } from './landing-page';

const scrollBy = vi.fn();

beforeEach(() => {
  // jsdom does not implement element scrolling.
  HTMLElement.prototype.scrollBy = scrollBy as unknown as HTMLElement['scrollBy'];
  scrollBy.mockReset();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

function stubTouchDevice(isTouch: boolean) {
  const matchMedia = vi.fn((query: string) => ({
    matches: isTouch && query === '(hover: none) and (pointer: coarse)',
    media: query,
    addEventListener: vi.fn(),
    removeEventListener: vi.fn(),
  }));
  vi.stubGlobal('matchMedia', matchMedia);
  return matchMedia;
}

describe('LandingPage', () => {
  it('shows the headline and the eleven service cards in order', async () => {
    renderWithProviders(<LandingPage />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Conecta tu vida y aprovéchala cada día.' })).toBeInTheDocument();
    const cards = within(screen.getByTestId('carousel-track')).getAllByTestId('service-card');
    expect(cards.map((card) => within(card).getByRole('heading', { level: 3 }).textContent)).toEqual([
      'Spotify',
      'GitHub',
      'Microsoft Cloud',
      'Philips Hue',
      'Notion',
      'YouTube',
      'SoundCloud',
      'Google Calendar',
      'Google Drive',
      'Google Fit',
      'Fitbit',
    ]);
  });

  it('gives every card an image, a description and a back side with three main uses', async () => {
    renderWithProviders(<LandingPage />);
    const cards = await screen.findAllByTestId('service-card');
    for (const card of cards) {
      expect(card.querySelector('svg')).not.toBeNull();
      expect(within(card).getByText('Usos principales')).toBeInTheDocument();
      const back = within(card).getByTestId('service-card-back');
      expect(within(back).getAllByRole('listitem')).toHaveLength(3);
    }
    expect(within(cards[0]!).getByText('Tu música, tus listas y tus podcasts favoritos.')).toBeInTheDocument();
  });

  it('makes every card a Tab stop named after its service, so the keyboard reaches its uses', async () => {
    renderWithProviders(<LandingPage />);
    const cards = await screen.findAllByTestId('service-card');
    for (const card of cards) {
      const face = within(card).getByTestId('service-card-face');
      expect(face).toHaveAttribute('tabindex', '0');
      expect(face).toHaveAccessibleName(within(card).getByRole('heading', { level: 3 }).textContent!);
    }
    expect(screen.getByRole('group', { name: 'Spotify' })).toBe(within(cards[0]!).getByTestId('service-card-face'));
  });

  it('staggers the fade-in by 0.2 s per position', async () => {
    renderWithProviders(<LandingPage />);
    const cards = await screen.findAllByTestId('service-card');
    expect(cards.map((card) => card.style.animationDelay)).toEqual(['0s', '0.2s', '0.4s', '0.6s', '0.8s', '1s', '1.2s', '1.4s', '1.6s', '1.8s', '2s']);
  });

  it('arrows scroll the track by 300 px smoothly and are disabled at its ends', async () => {
    renderWithProviders(<LandingPage />);
    const track = await screen.findByTestId('carousel-track');
    // jsdom lays nothing out: give the track a 600 px window on 1,200 px of cards.
    let left = 0;
    Object.defineProperty(track, 'scrollLeft', { configurable: true, get: () => left });
    Object.defineProperty(track, 'scrollWidth', { configurable: true, value: 1200 });
    Object.defineProperty(track, 'clientWidth', { configurable: true, value: 600 });
    scrollBy.mockImplementation(function (this: HTMLElement, options: ScrollToOptions) {
      left = Math.min(600, Math.max(0, left + (options.left ?? 0)));
      this.dispatchEvent(new Event('scroll'));
    });
    fireEvent.scroll(track);
    const previous = screen.getByRole('button', { name: 'Anterior' });
    const next = screen.getByRole('button', { name: 'Siguiente' });
    expect(previous).toBeDisabled();
    expect(next).toBeEnabled();

    await userEvent.click(next);
    expect(previous).toBeEnabled();
    expect(next).toBeEnabled();
    await userEvent.click(next);
    expect(next).toBeDisabled();
    await userEvent.click(previous);
    expect(next).toBeEnabled();
    expect(scrollBy.mock.calls).toEqual([[{ left: 300, behavior: 'smooth' }], [{ left: 300, behavior: 'smooth' }], [{ left: -300, behavior: 'smooth' }]]);
    expect(scrollBy.mock.contexts[0]).toBe(track);
  });

  it('on a touch device a tap flips a card and another tap flips it back', async () => {
    stubTouchDevice(true);
    renderWithProviders(<LandingPage />);
    const [first, second] = await screen.findAllByTestId('service-card');
    expect(first).toHaveAttribute('data-flipped', 'false');
    fireEvent.click(first!);
    expect(first).toHaveAttribute('data-flipped', 'true');
    expect(second).toHaveAttribute('data-flipped', 'false');
    fireEvent.click(first!);
    expect(first).toHaveAttribute('data-flipped', 'false');
  });

  it('on a device with a mouse a click does not flip the card', async () => {
    const matchMedia = stubTouchDevice(false);
    renderWithProviders(<LandingPage />);
    const [first] = await screen.findAllByTestId('service-card');
    fireEvent.click(first!);
    expect(matchMedia).toHaveBeenCalledWith('(hover: none) and (pointer: coarse)');
    expect(first).toHaveAttribute('data-flipped', 'false');
  });

  it('shows the editions slot under the services carousel', async () => {
    // The / route plugs billing's editions in (features/billing/components/editions-section.test.tsx, src/app/page-composition.test.tsx).
    renderWithProviders(<LandingPage editions={<section data-testid="editions-slot" />} />);
    const editions = await screen.findByTestId('editions-slot');
    expect(screen.getByTestId('carousel-track').compareDocumentPosition(editions) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });
});
