import { Bar, BarChart, CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { InsightsDashboard, InsightsWeek } from '#contracts/insights.ts';
import { dashboardLabel } from '../insights.ts';
import './insights-charts.css';

export interface InsightsChartsProps {
  readonly weeks: readonly InsightsWeek[];
  readonly dashboards: readonly InsightsDashboard[];
}

const CHART_HEIGHT = 260;
const PRIMARY = 'var(--color-primary)';

/** Most dashboards shown in the chart; the table below it lists every one. */
const MAX_CHART_DASHBOARDS = 12;

/**
 * The two charts of the Insights page (recharts, loaded in a chunk of their own). Each is an
 * image with a spoken summary; the tables next to them carry every figure as text, so the
 * charts' own keyboard layer is off (a hidden chart must not take focus).
 */
export default function InsightsCharts({ weeks, dashboards }: InsightsChartsProps) {
  const weekData = weeks.map((week) => ({ label: week.week, activeUsers: week.activeUsers }));
  const busiest = weeks.reduce<InsightsWeek | undefined>(
    (best, week) => (best === undefined || week.activeUsers > best.activeUsers ? week : best),
    undefined,
  );
  const dashboardData = dashboards
    .slice(0, MAX_CHART_DASHBOARDS)
    .map((dashboard) => ({ label: dashboardLabel(dashboard), views: dashboard.views }));
  const top = dashboards[0];
  const weeksSummary =
    weeks.length === 0
      ? 'No weeks in the range.'
      : `Active users per ISO week, ${weeks[0]!.week} to ${weeks[weeks.length - 1]!.week}: most in ${busiest!.week} (${busiest!.activeUsers}).`;
  const dashboardsSummary =
    top === undefined || top.views === 0
      ? 'Views per dashboard: no views in the range.'
      : `Views per dashboard: ${dashboardData.map((entry) => `${entry.label} ${entry.views}`).join(', ')}.`;

  return (
    <div className="insights-charts">
      <figure className="insights-chart">
        <figcaption className="insights-chart-title">Active users per week</figcaption>
        {/* A figure may not take the img role itself (ARIA in HTML), so the drawing inside it does. */}
        <div role="img" aria-label={weeksSummary}>
          <ResponsiveContainer width="100%" height={CHART_HEIGHT}>
            <LineChart data={weekData} accessibilityLayer={false} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="label" fontSize={12} />
              <YAxis allowDecimals={false} fontSize={12} />
              <Tooltip />
              <Line
                type="monotone"
                dataKey="activeUsers"
                name="Active users"
                stroke={PRIMARY}
                strokeWidth={2}
                isAnimationActive={false}
              />
            </LineChart>
          </ResponsiveContainer>
        </div>
      </figure>
      <figure className="insights-chart">
        <figcaption className="insights-chart-title">Views per dashboard</figcaption>
        <div role="img" aria-label={dashboardsSummary}>
          <ResponsiveContainer width="100%" height={CHART_HEIGHT}>
            <BarChart
              data={dashboardData}
              accessibilityLayer={false}
              layout="vertical"
              margin={{ top: 8, right: 16, bottom: 8, left: 8 }}
            >
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis type="number" allowDecimals={false} fontSize={12} />
              <YAxis type="category" dataKey="label" width={150} fontSize={12} />
              <Tooltip />
              <Bar dataKey="views" name="Views" fill={PRIMARY} isAnimationActive={false} />
            </BarChart>
          </ResponsiveContainer>
        </div>
      </figure>
    </div>
  );
}
