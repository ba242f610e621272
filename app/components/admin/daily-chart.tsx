import { useTranslation } from "~/lib/i18n";
import type { DailyPoint } from "~/models/analytics.server";

/** Daily views (bars) and orders (line), drawn on the server as SVG: no JavaScript needed. */
export function DailyChart({ points }: { points: DailyPoint[] }) {
  const { t } = useTranslation();
  const width = 720;
  const height = 220;
  const pad = { top: 16, right: 40, bottom: 28, left: 40 };
  const innerW = width - pad.left - pad.right;
  const innerH = height - pad.top - pad.bottom;
  const maxViews = Math.max(1, ...points.map((p) => p.views));
  const maxOrders = Math.max(1, ...points.map((p) => p.orders));
  const step = innerW / Math.max(1, points.length);
  const x = (i: number) => pad.left + i * step + step / 2;
  const yViews = (v: number) => pad.top + innerH - (v / maxViews) * innerH;
  const yOrders = (v: number) => pad.top + innerH - (v / maxOrders) * innerH;
  const line = points
    .map((p, i) => `${i === 0 ? "M" : "L"}${x(i).toFixed(1)},${yOrders(p.orders).toFixed(1)}`)
    .join(" ");
  const totalViews = points.reduce((sum, p) => sum + p.views, 0);
  const totalOrders = points.reduce((sum, p) => sum + p.orders, 0);
  return (
    <figure>
      <svg
        viewBox={`0 0 ${width} ${height}`}
        className="h-auto w-full"
        role="img"
        aria-labelledby="chart-title chart-desc"
      >
        <title id="chart-title">{t("dashboard.chartTitle")}</title>
        <desc id="chart-desc">{t("dashboard.chartSummary", { views: totalViews, orders: totalOrders })}</desc>
        <line x1={pad.left} x2={width - pad.right} y1={pad.top + innerH} y2={pad.top + innerH} stroke="#d6d3d1" />
        {points.map((p, i) => (
          <rect
            key={p.day}
            x={x(i) - step * 0.35}
            width={step * 0.7}
            y={yViews(p.views)}
            height={pad.top + innerH - yViews(p.views)}
            fill="#a3b86c"
          >
            <title>{`${p.day}: ${p.views} / ${p.orders}`}</title>
          </rect>
        ))}
        <path d={line} fill="none" stroke="#435020" strokeWidth="2" />
        {points.map((p, i) => (
          <circle key={`o-${p.day}`} cx={x(i)} cy={yOrders(p.orders)} r="2.5" fill="#435020" />
        ))}
        <text x={pad.left - 6} y={pad.top + 4} textAnchor="end" fontSize="11" fill="#78716c">
          {maxViews}
        </text>
        <text x={width - pad.right + 6} y={pad.top + 4} fontSize="11" fill="#435020">
          {maxOrders}
        </text>
        {points.length > 0 ? (
          <>
            <text x={x(0)} y={height - 8} fontSize="11" textAnchor="middle" fill="#78716c">
              {points[0]?.day.slice(5)}
            </text>
            <text x={x(points.length - 1)} y={height - 8} fontSize="11" textAnchor="middle" fill="#78716c">
              {points[points.length - 1]?.day.slice(5)}
            </text>
          </>
        ) : null}
      </svg>
      <figcaption className="mt-2 flex gap-4 text-xs text-stone-600">
        <span className="flex items-center gap-1">
          <span className="inline-block h-3 w-3 bg-[#a3b86c]" aria-hidden="true" /> {t("dashboard.chartViews")}
        </span>
        <span className="flex items-center gap-1">
          <span className="inline-block h-0.5 w-4 bg-[#435020]" aria-hidden="true" /> {t("dashboard.chartOrders")}
        </span>
      </figcaption>
    </figure>
  );
}
