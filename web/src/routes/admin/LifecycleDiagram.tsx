import { Box, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { apiQuery, useApi, type ApiResponse } from '../../api/query';
import { ltr } from '../../components/Bidi';

export type DiagramData = ApiResponse<'/api/diagram/{id}'>;

const W = 184;
const H = 68;
const GAP_X = 64;
const GAP_Y = 18;
const PAD = 16;

/**
 * The state diagram of a lifecycle, drawn from the machine (GET /api/diagram/:id): statuses in columns by distance
 * from the start, every possible move as a thin line, the moves the history took bold, the current status filled.
 */
export function LifecycleDiagram({ id, title }: { id: string; title: string }) {
  const { t } = useTranslation('admin');
  const q = useApi(apiQuery('/api/diagram/{id}', { params: { path: { id } }, silent: true, handleErrors: false }));
  const d = q.data;
  if (!d) return q.error ? <Text color="fg.muted">{t('diagram.unavailable')}</Text> : null;
  const pos = new Map(d.nodes.map((n) => [n.code, { x: PAD + n.column * (W + GAP_X), y: PAD + n.row * (H + GAP_Y) }]));
  const width = PAD * 2 + (Math.max(...d.nodes.map((n) => n.column)) + 1) * (W + GAP_X) - GAP_X;
  const height = PAD * 2 + (Math.max(...d.nodes.map((n) => n.row)) + 1) * (H + GAP_Y) - GAP_Y;
  const edgePath = (from: number, to: number) => {
    const a = pos.get(from)!;
    const b = pos.get(to)!;
    if (b.x > a.x) {
      const x1 = a.x + W, y1 = a.y + H / 2, x2 = b.x, y2 = b.y + H / 2;
      return `M${x1},${y1} C${x1 + GAP_X / 2},${y1} ${x2 - GAP_X / 2},${y2} ${x2},${y2}`;
    }
    // Same column or backwards: an arc above the boxes.
    const x1 = a.x + W / 2, y1 = a.y, x2 = b.x + W / 2, y2 = b.y;
    const lift = 24 + Math.abs(x1 - x2) / 8;
    return `M${x1},${y1} C${x1},${Math.min(y1, y2) - lift} ${x2},${Math.min(y1, y2) - lift} ${x2},${y2}`;
  };
  return (
    <Box overflowX="auto" borderWidth="1px" borderRadius="md" bg="bg" dir="ltr" data-testid="lifecycle-diagram" data-kind={d.kind}>
      <svg role="img" aria-label={title} width={width} height={height + 30} viewBox={`0 -30 ${width} ${height + 30}`} style={{ fontFamily: 'inherit' }}>
        <title>{title}</title>
        <defs>
          <marker id={`arrow-${id}`} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse">
            <path d="M0,0 L10,5 L0,10 z" fill="#94a3b8" />
          </marker>
          <marker id={`arrow-taken-${id}`} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse">
            <path d="M0,0 L10,5 L0,10 z" fill="#0f766e" />
          </marker>
        </defs>
        {d.edges
          .slice()
          .sort((a, b) => a.taken - b.taken)
          .map((e) => (
            <path
              key={`${e.from}-${e.to}`}
              d={edgePath(e.from, e.to)}
              fill="none"
              stroke={e.taken ? '#0f766e' : '#cbd5e1'}
              strokeWidth={e.taken ? 3 : 1}
              markerEnd={`url(#${e.taken ? 'arrow-taken-' : 'arrow-'}${id})`}
              data-testid={e.taken ? 'diagram-edge-taken' : 'diagram-edge'}
            >
              <title>{`${e.events.join(', ')}${e.taken ? ` (×${e.taken})` : ''}`}</title>
            </path>
          ))}
        {d.nodes.map((n) => {
          const p = pos.get(n.code)!;
          const current = n.code === d.current;
          return (
            <g key={n.code} data-testid={current ? 'diagram-current' : n.visited ? 'diagram-visited' : 'diagram-node'} data-code={n.code}>
              <title>{`${n.code}: ${n.label} (${n.states.join(', ')})`}</title>
              <rect x={p.x} y={p.y} width={W} height={H} rx={8} fill={current ? '#0f766e' : n.visited ? '#ccfbf1' : '#f8fafc'} stroke={n.visited || current ? '#0f766e' : '#94a3b8'} strokeWidth={current ? 3 : 1} />
              {/* HTML inside the box: the label wraps at its drawn width in either script (the longest take four lines). */}
              <foreignObject x={p.x + 6} y={p.y + 3} width={W - 12} height={H - 6}>
                <div
                  dir="auto"
                  data-testid="diagram-label"
                  style={{ height: '100%', display: 'flex', alignItems: 'center', justifyContent: 'center', textAlign: 'center', fontSize: 12, lineHeight: '15px', color: current ? '#ffffff' : '#0f172a', overflowWrap: 'anywhere' }}
                >
                  {/* The code isolated left to right: "-1" stays "-1" before an Arabic label. */}
                  {`${ltr(n.code)} · ${n.label}`}
                </div>
              </foreignObject>
            </g>
          );
        })}
      </svg>
    </Box>
  );
}
