import { useId, type ReactNode } from 'react';
import type { CountryCode } from '@/i18n/countries';
import { cn } from '@/lib/utils';

/**
 * Simplified national flags drawn inline (3:2 box, no network fetch). Emoji flags are
 * not used because Windows and many Linux installs have no glyphs for them.
 */
type FlagCode = CountryCode;

function starPath(cx: number, cy: number, outer: number, rotation = 0): string {
  const inner = outer * 0.382;
  const points: string[] = [];
  for (let i = 0; i < 10; i += 1) {
    const radius = i % 2 === 0 ? outer : inner;
    const angle = rotation + (Math.PI / 5) * i - Math.PI / 2;
    points.push(`${(cx + radius * Math.cos(angle)).toFixed(2)},${(cy + radius * Math.sin(angle)).toFixed(2)}`);
  }
  return `M${points.join('L')}Z`;
}

function Stripes({ colors, vertical = false }: { colors: string[]; vertical?: boolean }) {
  const size = (vertical ? 30 : 20) / colors.length;
  return (
    <>
      {colors.map((color, i) =>
        vertical ? (
          <rect key={i} x={i * size} y={0} width={size} height={20} fill={color} />
        ) : (
          <rect key={i} x={0} y={i * size} width={30} height={size} fill={color} />
        ),
      )}
    </>
  );
}

function UnitedStates() {
  const stripeHeight = 20 / 13;
  const stars: ReactNode[] = [];
  for (let row = 0; row < 5; row += 1) {
    for (let col = 0; col < (row % 2 === 0 ? 6 : 5); col += 1) {
      const x = (row % 2 === 0 ? 1.05 : 2.1) + col * 2.1;
      stars.push(<circle key={`${row}-${col}`} cx={x} cy={1.1 + row * 2.05} r={0.42} fill="#fff" />);
    }
  }
  return (
    <>
      <rect width={30} height={20} fill="#fff" />
      {Array.from({ length: 7 }, (_, i) => (
        <rect key={i} y={i * 2 * stripeHeight} width={30} height={stripeHeight} fill="#b22234" />
      ))}
      <rect width={12.6} height={stripeHeight * 7} fill="#3c3b6e" />
      {stars}
    </>
  );
}

function UnitedKingdom() {
  const id = useId();
  return (
    <svg viewBox="0 0 60 30" width={30} height={20} preserveAspectRatio="xMidYMid slice">
      <clipPath id={`${id}-t`}>
        <path d="M30,15 h30 v15 z v15 h-30 z h-30 v-15 z v-15 h30 z" />
      </clipPath>
      <rect width={60} height={30} fill="#012169" />
      <path d="M0,0 L60,30 M60,0 L0,30" stroke="#fff" strokeWidth={6} />
      <path d="M0,0 L60,30 M60,0 L0,30" clipPath={`url(#${id}-t)`} stroke="#c8102e" strokeWidth={4} />
      <path d="M30,0 v30 M0,15 h60" stroke="#fff" strokeWidth={10} />
      <path d="M30,0 v30 M0,15 h60" stroke="#c8102e" strokeWidth={6} />
    </svg>
  );
}

function FlagShapes({ code }: { code: FlagCode }) {
  switch (code) {
    case 'ES':
      return (
        <>
          <rect width={30} height={20} fill="#c60b1e" />
          <rect y={5} width={30} height={10} fill="#ffc400" />
        </>
      );
    case 'MX':
      return (
        <>
          <Stripes vertical colors={['#006847', '#fff', '#ce1126']} />
          <circle cx={15} cy={10} r={2.6} fill="#8c5a2b" opacity={0.85} />
          <path d="M12.6 11.4 q2.4 2.2 4.8 0" stroke="#006847" strokeWidth={0.7} fill="none" />
        </>
      );
    case 'US':
      return <UnitedStates />;
    case 'GB':
      return <UnitedKingdom />;
    case 'BR':
      return (
        <>
          <rect width={30} height={20} fill="#009c3b" />
          <path d="M15 2.2 L27.6 10 L15 17.8 L2.4 10 Z" fill="#ffdf00" />
          <circle cx={15} cy={10} r={4.6} fill="#002776" />
          <path d="M10.6 9 q4.6 -1.6 8.8 1.4" stroke="#fff" strokeWidth={0.8} fill="none" />
        </>
      );
    case 'FR':
      return <Stripes vertical colors={['#002395', '#fff', '#ed2939']} />;
    case 'DE':
      return <Stripes colors={['#000', '#dd0000', '#ffce00']} />;
    case 'IT':
      return <Stripes vertical colors={['#009246', '#fff', '#ce2b37']} />;
    case 'JP':
      return (
        <>
          <rect width={30} height={20} fill="#fff" />
          <circle cx={15} cy={10} r={6} fill="#bc002d" />
        </>
      );
    case 'CN':
      return (
        <>
          <rect width={30} height={20} fill="#de2910" />
          <path d={starPath(5, 5, 3)} fill="#ffde00" />
          <path d={starPath(10, 2, 1, 0.4)} fill="#ffde00" />
          <path d={starPath(12, 4, 1, 0.9)} fill="#ffde00" />
          <path d={starPath(12, 7, 1, 0)} fill="#ffde00" />
          <path d={starPath(10, 9, 1, 0.4)} fill="#ffde00" />
        </>
      );
  }
}

export function Flag({ code, className }: { code: FlagCode; className?: string }) {
  return (
    <span
      aria-hidden="true"
      data-flag={code}
      className={cn('inline-flex h-4 w-6 shrink-0 overflow-hidden rounded-[3px] shadow-[0_0_0_1px_rgb(0_0_0/0.08)]', className)}
    >
      <svg viewBox="0 0 30 20" className="size-full!" preserveAspectRatio="xMidYMid slice">
        <FlagShapes code={code} />
      </svg>
    </span>
  );
}
