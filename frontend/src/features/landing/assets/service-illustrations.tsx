import { useId, type ReactNode } from 'react';

/**
 * Our own decorative illustrations for the landing cards (280×160). They evoke what each
 * service is about; they are deliberately not the services' trademark logos.
 */
function Canvas({ from, to, children }: { from: string; to: string; children: ReactNode }) {
  const id = useId();
  return (
    <svg viewBox="0 0 280 160" className="size-full" aria-hidden="true" preserveAspectRatio="xMidYMid slice">
      <defs>
        <linearGradient id={`${id}-bg`} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor={from} />
          <stop offset="1" stopColor={to} />
        </linearGradient>
      </defs>
      <rect width="280" height="160" fill={`url(#${id}-bg)`} />
      <circle cx="250" cy="20" r="70" fill="#fff" opacity="0.07" />
      <circle cx="20" cy="150" r="50" fill="#fff" opacity="0.06" />
      {children}
    </svg>
  );
}

export function MusicIllustration() {
  const bars = [26, 44, 62, 38, 54, 30, 46];
  return (
    <Canvas from="#34d399" to="#047857">
      <circle cx="98" cy="80" r="46" fill="#064e3b" opacity="0.9" />
      <circle cx="98" cy="80" r="34" fill="none" stroke="#fff" strokeOpacity="0.12" strokeWidth="2" />
      <circle cx="98" cy="80" r="24" fill="none" stroke="#fff" strokeOpacity="0.12" strokeWidth="2" />
      <circle cx="98" cy="80" r="11" fill="#a7f3d0" />
      <circle cx="98" cy="80" r="3" fill="#064e3b" />
      {bars.map((height, i) => (
        <rect key={i} x={160 + i * 13} y={104 - height} width="7" height={height} rx="3.5" fill="#ecfdf5" opacity={0.65 + (i % 3) * 0.12} />
      ))}
    </Canvas>
  );
}

export function CodeIllustration() {
  return (
    <Canvas from="#334155" to="#0f172a">
      <path d="M40 96 H240" stroke="#94a3b8" strokeWidth="3" strokeLinecap="round" opacity="0.6" />
      <path d="M90 96 C110 96 110 58 134 58 H190 C212 58 212 96 232 96" fill="none" stroke="#a78bfa" strokeWidth="3" strokeLinecap="round" />
      {[56, 90, 150, 232].map((x) => (
        <circle key={x} cx={x} cy="96" r="8" fill="#0f172a" stroke="#e2e8f0" strokeWidth="3" />
      ))}
      {[134, 176].map((x) => (
        <circle key={x} cx={x} cy="58" r="8" fill="#0f172a" stroke="#c4b5fd" strokeWidth="3" />
      ))}
      <text x="40" y="44" fill="#e2e8f0" opacity="0.5" fontFamily="ui-monospace, monospace" fontSize="18" fontWeight="700">
        {'</>'}
      </text>
      <rect x="40" y="120" width="80" height="6" rx="3" fill="#64748b" opacity="0.6" />
      <rect x="128" y="120" width="48" height="6" rx="3" fill="#a78bfa" opacity="0.6" />
    </Canvas>
  );
}

export function CloudDocsIllustration() {
  return (
    <Canvas from="#7dd3fc" to="#2563eb">
      <path d="M84 112 a30 30 0 0 1 4 -59.6 a40 40 0 0 1 76 -8 a32 32 0 0 1 34 67.6 z" fill="#fff" opacity="0.95" />
      <rect x="118" y="70" width="44" height="56" rx="6" fill="#1d4ed8" />
      <path d="M148 70 v12 h14" fill="#93c5fd" />
      <rect x="126" y="92" width="28" height="4" rx="2" fill="#bfdbfe" />
      <rect x="126" y="102" width="22" height="4" rx="2" fill="#bfdbfe" />
      <rect x="126" y="112" width="26" height="4" rx="2" fill="#bfdbfe" />
    </Canvas>
  );
}

export function SmartLightIllustration() {
  const id = useId();
  return (
    <Canvas from="#312e81" to="#1e1b4b">
      <defs>
        <radialGradient id={`${id}-glow`}>
          <stop offset="0" stopColor="#fbbf24" stopOpacity="0.9" />
          <stop offset="0.45" stopColor="#f472b6" stopOpacity="0.45" />
          <stop offset="1" stopColor="#818cf8" stopOpacity="0" />
        </radialGradient>
      </defs>
      <circle cx="140" cy="70" r="70" fill={`url(#${id}-glow)`} />
      <path d="M140 36 a28 28 0 0 1 16 51 v9 h-32 v-9 a28 28 0 0 1 16 -51 z" fill="#fef3c7" />
      <rect x="126" y="100" width="28" height="6" rx="3" fill="#c7d2fe" />
      <rect x="130" y="110" width="20" height="6" rx="3" fill="#a5b4fc" />
      {['#f472b6', '#fbbf24', '#34d399', '#60a5fa'].map((color, i) => (
        <circle key={color} cx={104 + i * 24} cy="138" r="6" fill={color} />
      ))}
    </Canvas>
  );
}

export function NotesIllustration() {
  return (
    <Canvas from="#f5f5f4" to="#d6d3d1">
      <rect x="82" y="24" width="116" height="124" rx="10" fill="#fff" stroke="#292524" strokeWidth="3" />
      <rect x="98" y="42" width="60" height="8" rx="4" fill="#292524" />
      {[66, 88, 110].map((y, i) => (
        <g key={y}>
          <rect x="98" y={y - 7} width="12" height="12" rx="3" fill={i === 0 ? '#292524' : 'none'} stroke="#292524" strokeWidth="2" />
          {i === 0 && <path d={`M100.5 ${y - 1} l3 3 l5 -6`} stroke="#fff" strokeWidth="2" fill="none" strokeLinecap="round" />}
          <rect x="118" y={y - 3} width={i === 1 ? 48 : 62} height="5" rx="2.5" fill="#a8a29e" />
        </g>
      ))}
      <rect x="98" y="128" width="84" height="5" rx="2.5" fill="#e7e5e4" />
    </Canvas>
  );
}

export function VideoIllustration() {
  return (
    <Canvas from="#fb7185" to="#be123c">
      <rect x="62" y="26" width="156" height="96" rx="16" fill="#fff" opacity="0.18" />
      <rect x="70" y="34" width="140" height="80" rx="12" fill="#fff" opacity="0.92" />
      <circle cx="140" cy="74" r="20" fill="#e11d48" />
      <path d="M134 64 L150 74 L134 84 Z" fill="#fff" />
      <rect x="62" y="134" width="156" height="6" rx="3" fill="#fff" opacity="0.35" />
      <rect x="62" y="134" width="92" height="6" rx="3" fill="#fff" />
      <circle cx="154" cy="137" r="6" fill="#fff" />
    </Canvas>
  );
}

export function WaveformIllustration() {
  const heights = [10, 18, 30, 22, 40, 56, 34, 62, 48, 70, 44, 58, 30, 46, 24, 36, 18, 26, 12, 8];
  return (
    <Canvas from="#fdba74" to="#ea580c">
      {heights.map((height, i) => (
        <rect key={i} x={48 + i * 9.4} y={80 - height / 2} width="5" height={height} rx="2.5" fill="#fff" opacity={i < 11 ? 1 : 0.55} />
      ))}
      <circle cx="66" cy="128" r="12" fill="#fff" />
      <path d="M62 122 L72 128 L62 134 Z" fill="#ea580c" />
      <rect x="88" y="125" width="120" height="6" rx="3" fill="#fff" opacity="0.45" />
    </Canvas>
  );
}

export function CalendarIllustration() {
  return (
    <Canvas from="#e0e7ff" to="#a5b4fc">
      <rect x="76" y="22" width="128" height="120" rx="14" fill="#fff" />
      <path d="M76 36 a14 14 0 0 1 14 -14 h100 a14 14 0 0 1 14 14 v12 h-128 z" fill="#4f46e5" />
      <rect x="100" y="14" width="6" height="18" rx="3" fill="#312e81" />
      <rect x="174" y="14" width="6" height="18" rx="3" fill="#312e81" />
      {Array.from({ length: 15 }, (_, i) => {
        const col = i % 5;
        const row = Math.floor(i / 5);
        const highlighted = i === 7;
        return (
          <g key={i}>
            {highlighted && <circle cx={96 + col * 22} cy={72 + row * 24} r="10" fill="#f97362" />}
            <circle cx={96 + col * 22} cy={72 + row * 24} r="3" fill={highlighted ? '#fff' : '#c7d2fe'} />
          </g>
        );
      })}
    </Canvas>
  );
}

export function FilesIllustration() {
  return (
    <Canvas from="#5eead4" to="#0e7490">
      <path d="M70 54 h40 l10 12 h86 a8 8 0 0 1 8 8 v58 a8 8 0 0 1 -8 8 h-136 a8 8 0 0 1 -8 -8 v-70 a8 8 0 0 1 8 -8 z" fill="#134e4a" opacity="0.35" />
      <rect x="96" y="30" width="60" height="76" rx="8" fill="#fff" opacity="0.95" transform="rotate(-8 126 68)" />
      <rect x="128" y="28" width="60" height="76" rx="8" fill="#ecfeff" transform="rotate(7 158 66)" />
      <rect x="140" y="48" width="34" height="5" rx="2.5" fill="#67e8f9" transform="rotate(7 158 66)" />
      <rect x="140" y="60" width="26" height="5" rx="2.5" fill="#a5f3fc" transform="rotate(7 158 66)" />
      <path d="M62 78 h42 l10 12 h104 a8 8 0 0 1 8 8 v36 a8 8 0 0 1 -8 8 h-148 a8 8 0 0 1 -8 -8 v-48 a8 8 0 0 1 8 -8 z" fill="#fff" />
      <rect x="78" y="118" width="50" height="6" rx="3" fill="#99f6e4" />
    </Canvas>
  );
}

export function HeartRateIllustration() {
  return (
    <Canvas from="#fbcfe8" to="#f472b6">
      <path d="M140 132 C92 100 70 78 70 56 a28 28 0 0 1 70 -12 a28 28 0 0 1 70 12 c0 22 -22 44 -70 76 z" fill="#fff" opacity="0.95" />
      <path d="M54 84 H104 L116 62 L132 108 L146 70 L156 84 H226" fill="none" stroke="#db2777" strokeWidth="5" strokeLinecap="round" strokeLinejoin="round" />
    </Canvas>
  );
}

export function WearableIllustration() {
  const progress = 0.72;
  const radius = 30;
  const circumference = 2 * Math.PI * radius;
  return (
    <Canvas from="#2dd4bf" to="#0f766e">
      <rect x="118" y="0" width="44" height="160" rx="14" fill="#134e4a" opacity="0.55" />
      <rect x="98" y="38" width="84" height="84" rx="24" fill="#0f172a" />
      <circle cx="140" cy="80" r={radius} fill="none" stroke="#334155" strokeWidth="7" />
      <circle
        cx="140"
        cy="80"
        r={radius}
        fill="none"
        stroke="#5eead4"
        strokeWidth="7"
        strokeLinecap="round"
        strokeDasharray={`${circumference * progress} ${circumference}`}
        transform="rotate(-90 140 80)"
      />
      {[0, 1, 2].map((row) =>
        [0, 1, 2].map((col) => (
          <circle key={`${row}-${col}`} cx={132 + col * 8} cy={72 + row * 8} r="2.2" fill={row === 1 && col === 1 ? '#5eead4' : '#94a3b8'} />
        )),
      )}
    </Canvas>
  );
}
